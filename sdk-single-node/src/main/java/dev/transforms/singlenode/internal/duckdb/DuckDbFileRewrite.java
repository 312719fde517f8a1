package dev.transforms.singlenode.internal.duckdb;

import dev.transforms.singlenode.internal.parquet.WrittenFile;
import dev.transforms.singlenode.internal.plan.DirectScan;
import dev.transforms.singlenode.internal.plan.DirectScan;
import dev.transforms.singlenode.internal.plan.FileRewrite;
import dev.transforms.singlenode.internal.plan.RewriteStrategy;
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
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.Schema;
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
 * <p>DuckDB decodes, filters and encodes in native code on all cores; {@link #supports} tells when its
 * result is the same as the engine's: a codec DuckDB writes, every column a primitive type DuckDB reads
 * and writes as Iceberg's Parquet mapping requires ({@link DuckDbWritePlan#sqlType}).
 */
public final class DuckDbFileRewrite implements FileRewrite {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DuckDbFileRewrite.class);

  /** Names the positions of each rewrite apart in the JVM's shared DuckDB database. */
  private static final java.util.concurrent.atomic.AtomicLong REWRITES = new java.util.concurrent.atomic.AtomicLong();

  /** The strategy, for {@code RewritePlanner}'s table. */
  public DuckDbFileRewrite() {}

  @Override
  public RewriteStrategy strategy() {
    return RewriteStrategy.DUCKDB;
  }

  @Override
  public Optional<String> declines(Request request) {
    return !request.duckDbAllowed() ? Optional.of("turned off (duckdb.parquet=false)")
        : !supports(request.table(), request.schema()) ? Optional.of("not on the class path, or a codec or a column "
            + "type it does not write as Iceberg's writer does") : Optional.empty();
  }

  /**
   * Whether DuckDB can rewrite files of this table with this schema to the same rows, types and
   * metrics as the Java writer.
   *
   * @param table the table
   * @param schema the schema the kept rows are written with
   * @return whether DuckDB may rewrite
   */
  public static boolean supports(Table table, Schema schema) {
    if (!DuckDbLibrary.present() || DuckDbWritePlan.codec(table.properties()).isEmpty()
        || DuckDbWritePlan.zstdLevel(table.properties()).isEmpty()
        || !"parquet".equalsIgnoreCase(table.properties().getOrDefault(TableProperties.DEFAULT_FILE_FORMAT, "parquet"))
        || table.properties().containsKey(TableProperties.DEFAULT_NAME_MAPPING)) {
      return false;
    }
    return schema.columns().stream().allMatch(c -> DuckDbWritePlan.writable(c.type())
        && DuckDbWritePlan.sqlType(c.type()).isPresent() && DirectScan.plainFileColumn(table, c));
  }

  @Override
  public Optional<DataFile> rewrite(Request request, long[] dropped, String target, Path out) {
    Table table = request.table();
    Schema schema = request.schema();
    Path source = request.source();
    String scan = DuckDbArrowRead.readParquet(new DirectScan(List.of(source), schema, 0), true);
    List<String> columns = new ArrayList<>();
    for (Types.NestedField column : schema.columns()) {
      columns.add(SqlNames.quote(column.name()));
    }
    try (BufferAllocator allocator = DuckDbParquetWriter.unsafeAllocator();
        DuckDBConnection connection = DuckDbParquetWriter.connect();
        Statement st = connection.createStatement()) {
      st.execute("SET TimeZone = 'UTC'");
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
          + SqlNames.literal(out.toString()) + " (" + DuckDbParquetWriter.options(table, schema) + ")");
      return Optional.of(WrittenFile.dataFile(table, request.spec(), request.partition(), target, out,
          floatMetrics(st, out, schema)));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot read back the file DuckDB wrote for " + table.name() + ": "
          + target, e);
    } catch (SQLException e) {
      throw new IllegalStateException("DuckDB failed to rewrite " + source + " into " + target + " for table "
          + table.name() + ": " + e.getMessage(), e);
    }
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
  public static Stream<FieldMetrics<?>> floatMetrics(Statement st, Path file, Schema schema)
      throws SQLException {
    List<Types.NestedField> floats = WrittenFile.floats(schema);
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
