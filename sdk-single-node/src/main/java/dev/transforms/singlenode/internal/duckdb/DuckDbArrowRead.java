package dev.transforms.singlenode.internal.duckdb;

import dev.transforms.singlenode.internal.plan.DirectScan;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.internal.read.ColumnHalves;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import dev.transforms.singlenode.internal.plan.ReadStrategy;
import dev.transforms.singlenode.internal.plan.SnapshotRead;
import org.duckdb.DuckDBResultSet;

/**
 * Reads the rows of a {@link DirectScan} into one Arrow root with DuckDB's Parquet reader, the
 * columns typed and tagged exactly as the engine's own reader gives them ({@link ArrowSchemas#toArrow}).
 * Rows keep the order of the files and of the rows in them.
 *
 * <p>DuckDB's Arrow export is checked column by column against the engine's Arrow type; where any
 * differs the read is given up (empty) and the caller reads with the engine's reader, so a type
 * DuckDB hands over differently can never change what a caller sees.
 *
 * <p>DuckDB decodes one row group on one thread, and Iceberg's writers make large row groups; a read of
 * 200,000 rows or more is therefore two scans of the same files, each of about half
 * the columns (by a rough decoding weight), on two threads, whose vectors make up the one root. Both
 * keep the files' row order, so their rows line up; the row counts are checked.
 */
public final class DuckDbArrowRead implements SnapshotRead {

  /** The strategy, for {@code ReadPlanner}'s table. */
  public DuckDbArrowRead() {}

  @Override
  public ReadStrategy strategy() {
    return ReadStrategy.DUCKDB;
  }

  @Override
  public Optional<String> declines(Table table, DirectScan scan, boolean forced) {
    if (!DuckDbLibrary.present()) {
      return Optional.of("not on the class path (or the JVM does not open java.nio)");
    }
    return scan.schema().columns().stream().filter(c -> !DirectScan.exportedAsEngine(c.type())).findFirst()
        .map(c -> "column " + c.name() + " is of type " + c.type() + ", which it exports otherwise");
  }

  /**
   * Reads every row of the scan.
   *
   * @param scan the files and schema
   * @param allocator where the root's memory is accounted
   * @return the rows, or empty when DuckDB's types differ from the engine's
   */
  @Override
  public Optional<VectorSchemaRoot> read(Table table, DirectScan scan, BufferAllocator allocator) {
    // DuckDB decodes a row group on one thread, and Iceberg's row groups are large (128 MB): two scans
    // of the same files, each of about half the columns' weight, decode on two threads
    return ColumnHalves.inHalves(scan, part -> readOne(
        new DirectScan(scan.files(), new org.apache.iceberg.Schema(part), scan.rows()), allocator));
  }

  /** One DuckDB scan of the columns of {@code scan.schema()}. */
  private static Optional<VectorSchemaRoot> readOne(DirectScan scan, BufferAllocator allocator) {
    Schema wanted = ArrowSchemas.toArrow(scan.schema());
    int batch = (int) Math.max(1, Math.min(Integer.MAX_VALUE - 1, scan.rows()));
    try (Connection connection = DuckDbParquetWriter.connect();
        Statement st = connection.createStatement()) {
      st.execute("SET TimeZone = 'UTC'");
      try (ResultSet rows = st.executeQuery("SELECT * FROM " + readParquet(scan, false));
          ArrowReader reader = (ArrowReader) rows.unwrap(DuckDBResultSet.class).arrowExportStream(allocator, batch)) {
        VectorSchemaRoot exported = reader.getVectorSchemaRoot();
        if (!sameTypes(exported.getSchema(), wanted)) {
          return Optional.empty();
        }
        return Optional.of(ColumnHalves.gather(reader, () -> exported, wanted, allocator));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the Arrow batches DuckDB exported for " + scan.files(), e);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("DuckDB failed to read the Parquet files " + scan.files() + ": "
          + e.getMessage(), e);
    }
  }

  private static boolean sameTypes(Schema exported, Schema wanted) {
    if (exported.getFields().size() != wanted.getFields().size()) {
      return false;
    }
    for (int i = 0; i < wanted.getFields().size(); i++) {
      Field got = exported.getFields().get(i);
      Field want = wanted.getFields().get(i);
      if (!got.getType().equals(want.getType()) || !got.getChildren().isEmpty() || !want.getChildren().isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /**
   * A DuckDB table function call that reads the files: {@code read_parquet} over the file list, with
   * each column found by its field id and typed as the engine's reader would load it, and DuckDB's
   * {@code file_row_number} column (a row's position in its file, Iceberg's {@code _pos}) when asked.
   *
   * @param scan the files and columns
   * @param rowNumbers whether to add the {@code file_row_number} column
   * @return the SQL of the call
   */
  public static String readParquet(DirectScan scan, boolean rowNumbers) {
    StringBuilder sql = new StringBuilder("read_parquet([");
    for (int i = 0; i < scan.files().size(); i++) {
      sql.append(i == 0 ? "" : ", ").append(SqlNames.literal(scan.files().get(i).toString()));
    }
    sql.append("], schema = MAP {");
    List<Types.NestedField> columns = scan.schema().columns();
    for (int i = 0; i < columns.size(); i++) {
      Types.NestedField column = columns.get(i);
      sql.append(i == 0 ? "" : ", ").append(column.fieldId())
          .append(": {name: ").append(SqlNames.literal(column.name()))
          .append(", type: ").append(SqlNames.literal(DuckDbWritePlan.sqlType(column.type()).orElseThrow()))
          .append(", default_value: NULL}");
    }
    return sql.append('}').append(rowNumbers ? ", file_row_number = true" : "").append(')').toString();
  }
}
