package dev.transforms.singlenode.internal.sql;

import dev.transforms.singlenode.internal.parquet.PageCopyRewrite;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.duckdb.DuckDBConnection;

/**
 * Copy-on-write of one Parquet data file by DuckDB: the file's rows minus a set of positions, in their
 * order, into one new Parquet file with the table's field ids and compression, and the Iceberg
 * {@link DataFile} that describes it, its metrics read back from the new footer (value, null and NaN
 * counts, bounds) as Iceberg's own writer records them.
 *
 * <p>DuckDB decodes, filters and encodes in native code on all cores, where the Java path decodes and
 * encodes every value; {@link #supports} tells when its result is the same: a local Parquet file, a
 * codec DuckDB writes, every column a primitive type DuckDB reads and writes as Iceberg's Parquet
 * mapping requires (see {@link DirectScan#sqlType}), and no row lineage columns to carry.
 *
 * <p>DuckDB's reader decodes a row group on one thread, and a file of Iceberg's is often one row
 * group; when Arrow C++'s reader is loaded and reads every column as the engine does, it decodes the
 * file instead ({@code ArrowDatasetKeptRows}) and DuckDB filters and encodes its batches on all cores.
 */
public final class DuckDbFileRewrite {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DuckDbFileRewrite.class);

  /** Names the positions of each rewrite apart in the JVM's shared DuckDB database. */
  private static final java.util.concurrent.atomic.AtomicLong REWRITES = new java.util.concurrent.atomic.AtomicLong();

  private DuckDbFileRewrite() {}

  /**
   * Whether DuckDB can rewrite files of this table with this schema to the same rows, types and
   * metrics as the Java writer.
   *
   * @param table the table
   * @param schema the schema the kept rows are written with
   * @return whether {@link #rewrite} may be used
   */
  public static boolean supports(Table table, Schema schema) {
    if (!DuckDbLibrary.present() || DuckDbWritePlan.codec(table.properties()).isEmpty()
        || DuckDbWritePlan.zstdLevel(table.properties()).isEmpty()
        || !"parquet".equalsIgnoreCase(table.properties().getOrDefault(TableProperties.DEFAULT_FILE_FORMAT, "parquet"))
        || table.properties().containsKey(TableProperties.DEFAULT_NAME_MAPPING)) {
      return false;
    }
    return schema.columns().stream().allMatch(c -> DuckDbWritePlan.writable(c.type())
        && DirectScan.sqlType(c.type()).isPresent() && DirectScan.plainFileColumn(table, c));
  }

  /**
   * The local path of a location, when it is on the local file system.
   *
   * @param location a file location
   * @return the path, or empty
   */
  public static Optional<Path> localPath(String location) {
    return DirectScan.localPath(location);
  }

  /**
   * Writes the rows of {@code source} except those at {@code dropped} into {@code target}.
   *
   * @param table the table both files belong to
   * @param schema the schema of the table (the columns written, in order)
   * @param source the local path of the file rewritten
   * @param dropped the positions in {@code source} to leave out, sorted
   * @param target the new file's location (local)
   * @param spec the partition spec of the new file (the source's)
   * @param partition the partition of the new file (the source's)
   * @return the new data file
   * @throws IllegalStateException naming both files if DuckDB fails; the target may then exist and is
   *     the caller's to delete
   */
  public static DataFile rewrite(Table table, Schema schema, Path source, long[] dropped, String target,
      PartitionSpec spec, StructLike partition) {
    Path out = localPath(target).orElseThrow(() -> new IllegalArgumentException("Not a local file: " + target));
    try {
      // DuckDB creates no folders; a table's data folder may not exist yet (its files elsewhere so far)
      java.nio.file.Files.createDirectories(out.getParent());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot create the folder of " + target, e);
    }
    String scan = new DirectScan(List.of(source), schema, 0).readParquet(true);
    List<String> columns = new ArrayList<>();
    for (Types.NestedField column : schema.columns()) {
      columns.add(SqlNames.quote(column.name()));
    }
    String options = DuckDbParquetWriter.options(schema, DuckDbWritePlan.codec(table.properties()).orElseThrow(),
        DuckDbWritePlan.zstdLevel(table.properties()).getAsInt());
    // Arrow's Unsafe manager, as the engine's own allocators (see ArrowMemory): Netty's breaks beside Spark
    try (BufferAllocator allocator = new RootAllocator(RootAllocator.configBuilder()
            .allocationManagerFactory(org.apache.arrow.memory.unsafe.UnsafeAllocationManager.FACTORY).build());
        DuckDBConnection connection = DuckDbParquetWriter.connect();
        Statement st = connection.createStatement()) {
      st.execute("SET TimeZone = 'UTC'");
      Optional<DataFile> byPages = rewriteByCopyingPages(table, schema, source, dropped, target, out, spec,
          partition, st);
      if (byPages.isPresent()) {
        return byPages.get();
      }
      Optional<DataFile> byArrowCpp = rewriteDecodedByArrowCpp(table, schema, columns, source, dropped, target, out,
          spec, partition, options, allocator, connection, st);
      if (byArrowCpp.isPresent()) {
        return byArrowCpp.get();
      }
      String keep;
      List<long[]> ranges = ranges(dropped, MAX_RANGES);
      if (dropped.length == 0) {
        keep = "";
      } else if (ranges != null) {
        // a few runs of positions (a delete by a range of keys): a filter, which keeps the file's order
        StringBuilder filter = new StringBuilder(" WHERE NOT (");
        for (int i = 0; i < ranges.size(); i++) {
          filter.append(i == 0 ? "" : " OR ").append("file_row_number BETWEEN ").append(ranges.get(i)[0])
              .append(" AND ").append(ranges.get(i)[1]);
        }
        keep = filter.append(')').toString();
      } else {
        String positions = "dropped_positions_" + REWRITES.incrementAndGet();
        register(connection, allocator, dropped, positions);
        keep = " WHERE file_row_number NOT IN (SELECT pos FROM " + positions + ") ORDER BY file_row_number";
      }
      st.execute("COPY (SELECT " + String.join(", ", columns) + " FROM " + scan + keep + ") TO "
          + SqlNames.literal(out.toString()) + " (" + options + ")");
      return DuckDbParquetWriter.dataFile(table, spec, partition, target, out, floatMetrics(st, out, schema));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot read back the file DuckDB wrote for " + table.name() + ": "
          + target, e);
    } catch (SQLException e) {
      throw new IllegalStateException("DuckDB failed to rewrite " + source + " into " + target + " for table "
          + table.name() + ": " + e.getMessage(), e);
    }
  }

  /**
   * The rewrite that copies the pages holding no dropped row ({@code PageCopyRewrite}), where it
   * applies; empty, nothing left written, where it does not or it failed (the other paths then rewrite
   * the file, so a failure here is logged, not thrown).
   */
  private static Optional<DataFile> rewriteByCopyingPages(Table table, Schema schema, Path source, long[] dropped,
      String target, Path out, PartitionSpec spec, StructLike partition, Statement st) {
    if ("false".equalsIgnoreCase(System.getProperty(PAGE_COPY_SWITCH, "true").strip())) {
      return Optional.empty();
    }
    try {
      java.util.OptionalLong copied = PageCopyRewrite.rewrite(source, out, dropped, schema,
          DuckDbWritePlan.codec(table.properties()).orElseThrow(),
          DuckDbWritePlan.zstdLevel(table.properties()).getAsInt());
      if (copied.isEmpty()) {
        return Optional.empty();
      }
      DataFile written = DuckDbParquetWriter.dataFile(table, spec, partition, target, out,
          floatMetrics(st, out, schema));
      if (written.recordCount() != copied.getAsLong()) {
        throw new IllegalStateException("the copy holds " + written.recordCount() + " rows, "
            + copied.getAsLong() + " were kept");
      }
      PAGE_COPIES.incrementAndGet();
      return Optional.of(written);
    } catch (java.io.IOException | SQLException | RuntimeException e) {
      LOG.warn("Could not rewrite {} of table {} by copying its pages; decoding it instead", source, table.name(), e);
      try {
        java.nio.file.Files.deleteIfExists(out);
      } catch (java.io.IOException ignored) {
        // the caller deletes the target when the rewrite fails as a whole
      }
      return Optional.empty();
    }
  }

  /**
   * The rewrite with the source decoded by Arrow C++ ({@code ArrowDatasetKeptRows}) and encoded by
   * DuckDB, when Arrow C++'s reader is loaded and reads every column as the engine does; empty,
   * nothing written, otherwise.
   */
  private static Optional<DataFile> rewriteDecodedByArrowCpp(Table table, Schema schema, List<String> columns,
      Path source, long[] dropped, String target, Path out, PartitionSpec spec, StructLike partition, String options,
      BufferAllocator allocator, DuckDBConnection connection, Statement st) throws SQLException, java.io.IOException {
    if (!ArrowDatasetRead.ready() || !ArrowDatasetRead.canRead(table, schema)) {
      return Optional.empty();
    }
    Optional<ArrowDatasetKeptRows> opened = ArrowDatasetKeptRows.open(source, schema.columns(), dropped,
        ARROW_CPP_BATCH_ROWS, allocator);
    if (opened.isEmpty()) {
      return Optional.empty();
    }
    String stream = "rewrite_rows_" + REWRITES.incrementAndGet();
    long read;
    try (ArrowDatasetKeptRows rows = opened.get();
        ArrowArrayStream exported = ArrowArrayStream.allocateNew(allocator)) {
      Data.exportArrayStream(allocator, rows, exported);
      connection.registerArrowStream(stream, exported);
      st.execute("COPY (SELECT " + String.join(", ", columns) + " FROM " + stream + " WHERE "
          + SqlNames.quote(ArrowDatasetKeptRows.KEEP) + ") TO " + SqlNames.literal(out.toString()) + " ("
          + options + ")");
      read = rows.rowsRead();
    }
    DataFile written = DuckDbParquetWriter.dataFile(table, spec, partition, target, out, floatMetrics(st, out, schema));
    if (written.recordCount() != read - dropped.length) {
      throw new IllegalStateException("The rewrite of " + source + " kept " + written.recordCount() + " of "
          + read + " rows read, leaving out " + dropped.length + " positions");
    }
    ARROW_CPP_REWRITES.incrementAndGet();
    return Optional.of(written);
  }

  /**
   * The JVM system property that, when {@code false}, keeps rewrites from copying the pages that hold
   * no dropped row ({@code PageCopyRewrite}): {@code -Dtransforms.page-copy=false}.
   */
  public static final String PAGE_COPY_SWITCH = "transforms.page-copy";

  private static final java.util.concurrent.atomic.AtomicLong PAGE_COPIES =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * The rewrites that copied the pages holding no dropped row, in this JVM, for tests that must know
   * which path ran.
   *
   * @return the count
   */
  public static long pageCopies() {
    return PAGE_COPIES.get();
  }

  /** Rows per batch Arrow C++ decodes for a rewrite: DuckDB's row group, so each batch is one for a thread. */
  private static final int ARROW_CPP_BATCH_ROWS = 122_880;

  private static final java.util.concurrent.atomic.AtomicLong ARROW_CPP_REWRITES =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * The rewrites whose source Arrow C++ decoded, in this JVM, for tests that must know which path ran.
   *
   * @return the count
   */
  public static long arrowCppRewrites() {
    return ARROW_CPP_REWRITES.get();
  }

  /** The most runs of consecutive positions left out by a filter rather than a join and a sort. */
  private static final int MAX_RANGES = 256;

  /** The runs of consecutive positions, first and last of each; null when there are more than {@code max}. */
  private static List<long[]> ranges(long[] sorted, int max) {
    List<long[]> ranges = new ArrayList<>();
    int i = 0;
    while (i < sorted.length) {
      int j = i;
      while (j + 1 < sorted.length && sorted[j + 1] == sorted[j] + 1) {
        j++;
      }
      if (ranges.size() == max) {
        return null;
      }
      ranges.add(new long[] {sorted[i], sorted[j]});
      i = j + 1;
    }
    return ranges;
  }

  /** Hands the positions to DuckDB as a one-column Arrow table, {@code dropped_positions(pos)}. */
  private static void register(DuckDBConnection duck, BufferAllocator allocator, long[] dropped, String name)
      throws SQLException {
    BigIntVector positions = new BigIntVector("pos", allocator);
    try {
      positions.allocateNew(dropped.length);
      for (int i = 0; i < dropped.length; i++) {
        positions.set(i, dropped[i]);
      }
      positions.setValueCount(dropped.length);
    } catch (RuntimeException e) {
      positions.close();
      throw e;
    }
    try (org.apache.arrow.vector.ipc.ArrowReader reader = new OneBatchReader(allocator, VectorSchemaRoot.of(positions));
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
      Data.exportArrayStream(allocator, reader, stream);
      duck.registerArrowStream(name + "_stream", stream);
      try (Statement st = duck.createStatement()) {
        st.execute("CREATE TEMP TABLE " + name + " AS SELECT pos FROM " + name + "_stream");
      }
    } catch (java.io.IOException e) {
      throw new SQLException("Cannot hand the dropped positions to DuckDB: " + e.getMessage(), e);
    }
  }

  /**
   * The metrics of the float and double columns that Iceberg's writer keeps and Parquet's footer lacks
   * (NaN counts, and bounds that leave NaN out), counted with one query over the new file.
   */
  private static Stream<FieldMetrics<?>> floatMetrics(Statement st, Path file, Schema schema)
      throws SQLException {
    List<Types.NestedField> floats = schema.columns().stream()
        .filter(c -> c.type().typeId() == Type.TypeID.FLOAT || c.type().typeId() == Type.TypeID.DOUBLE)
        .toList();
    if (floats.isEmpty()) {
      return Stream.empty();
    }
    StringBuilder sql = new StringBuilder("SELECT count(*)");
    for (Types.NestedField column : floats) {
      String name = SqlNames.quote(column.name());
      sql.append(", count(*) FILTER (WHERE ").append(name).append(" IS NULL)")
          .append(", count(*) FILTER (WHERE isnan(").append(name).append("))")
          .append(", min(").append(name).append(") FILTER (WHERE NOT isnan(").append(name).append("))")
          .append(", max(").append(name).append(") FILTER (WHERE NOT isnan(").append(name).append("))");
    }
    sql.append(" FROM read_parquet(").append(SqlNames.literal(file.toString())).append(')');
    List<FieldMetrics<?>> metrics = new ArrayList<>();
    try (ResultSet row = st.executeQuery(sql.toString())) {
      row.next();
      long rows = row.getLong(1);
      for (int i = 0; i < floats.size(); i++) {
        Types.NestedField column = floats.get(i);
        int at = 2 + 4 * i;
        metrics.add(new FieldMetrics<>(column.fieldId(), rows, row.getLong(at), row.getLong(at + 1),
            number(column.type(), row.getObject(at + 2)), number(column.type(), row.getObject(at + 3))));
      }
    }
    return metrics.stream();
  }

  private static Object number(Type type, Object value) {
    if (value == null) {
      return null;
    }
    Number number = (Number) value;
    return type.typeId() == Type.TypeID.FLOAT ? (Object) number.floatValue() : (Object) number.doubleValue();
  }

}
