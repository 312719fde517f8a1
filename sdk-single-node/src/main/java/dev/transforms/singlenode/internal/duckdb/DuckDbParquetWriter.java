package dev.transforms.singlenode.internal.duckdb;

import dev.transforms.singlenode.internal.parquet.WrittenFile;
import dev.transforms.singlenode.internal.plan.DirectScan;
import dev.transforms.api.TransformsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.duckdb.DuckDBConnection;

/**
 * Writes Arrow batches to new Parquet data files of an Iceberg table with DuckDB, for tables a {@link
 * DuckDbWritePlan} accepts. The batches reach an in-memory DuckDB through the Arrow C data interface
 * (no copy), and one {@code COPY (SELECT ...) TO '<file>' (FORMAT parquet, FIELD_IDS ...)} writes each
 * file: every column cast to the DuckDB type of its Iceberg type, named and numbered as in the table,
 * compressed with the table's codec (zstd at the table's level, else level 1, as the Java writer of this
 * engine does). DuckDB's default row groups (122,880 rows) are kept.
 *
 * <p>The {@link DataFile} carries Iceberg's metrics read back from the file's footer with the table's
 * metrics configuration, plus the NaN counts and float bounds that Iceberg's Java writer keeps and a
 * footer lacks (measured on the Arrow batches on their way to DuckDB), so they equal the Java writer's.
 *
 * <p>A file that fails is deleted before the failure is thrown; files completed before it are handed to
 * the caller as they complete, for the caller to delete on abort.
 */
public final class DuckDbParquetWriter {

  private static final java.util.concurrent.atomic.AtomicLong STREAMS = new java.util.concurrent.atomic.AtomicLong();

  private DuckDbParquetWriter() {}

  /**
   * A new connection to the JVM's DuckDB database of default settings ({@link DuckDbDatabases}), for one piece of work (its settings
   * and temporary tables are its own); the caller closes it.
   *
   * @throws SQLException if DuckDB cannot open
   */
  public static DuckDBConnection connect() throws SQLException {
    return DuckDbDatabases.defaults().root().duplicate();
  }

  /**
   * Writes every batch of a source into one or more new data files, a file being closed once the Arrow
   * size of its batches reaches {@code byteLimit}.
   *
   * @param source the batches, of a schema the plan {@link DuckDbWritePlan#accepts accepts}; read to the
   *     end, not closed
   * @param allocator where the exported stream's batches are allocated
   * @param locations the location of each new file, local
   * @param byteLimit the Arrow bytes after which a file is closed and the next one started
   * @param written receives each data file once complete, in the order of the rows
   * @throws TransformsException if a required column holds a null, or DuckDB fails; the file being
   *     written is deleted
   */
  public static void write(DuckDbWritePlan plan, ArrowReader source, BufferAllocator allocator,
      Supplier<String> locations, long byteLimit, Consumer<DataFile> written) {
    try (DuckDBConnection duck = connect()) {
      try (Statement st = duck.createStatement()) {
        st.execute("SET TimeZone = 'UTC'");
      }
      boolean more = true;
      while (more) {
        String location = locations.get();
        CheckedBatches batches = new CheckedBatches(allocator, source, plan.schema(), plan.table().name(),
            byteLimit);
        try {
          DataFile data = writeFile(plan, duck, batches, allocator, location, "batches_" + STREAMS.incrementAndGet());
          more = batches.stoppedAtLimit();
          if (data != null) {
            written.accept(data);
          }
        } finally {
          try {
            batches.close(); // closes only its own root, again if the exported stream did already
          } catch (IOException e) {
            // nothing of the source is closed here
          }
        }
      }
    } catch (SQLException e) {
      throw new TransformsException("Cannot open DuckDB to write a data file of table " + plan.table().name()
          + ": " + e.getMessage(), e);
    }
  }

  private static DataFile writeFile(DuckDbWritePlan plan, DuckDBConnection duck, CheckedBatches batches,
      BufferAllocator allocator, String location, String streamName) {
    Path path = DirectScan.localPath(location).orElseThrow(
        () -> new IllegalStateException("Not a local file: " + location));
    String table = plan.table().name();
    try {
      Files.createDirectories(path.getParent());
      try (ArrowArrayStream exported = ArrowArrayStream.allocateNew(allocator)) {
        Data.exportArrayStream(allocator, batches, exported);
        duck.registerArrowStream(streamName, exported);
        try (Statement st = duck.createStatement()) {
          st.execute(copy(plan, batches.getVectorSchemaRoot().getSchema(), streamName, path));
        }
      }
      if (batches.failure() != null) {
        throw batches.failure();
      }
      if (batches.rows() == 0) {
        Files.deleteIfExists(path);
        return null;
      }
      return dataFile(plan, batches, location, path);
    } catch (SQLException | IOException | RuntimeException | Error e) {
      deleteQuietly(path, e);
      if (batches.failure() != null && batches.failure() != e) {
        batches.failure().addSuppressed(e);
        throw batches.failure();
      }
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      } else if (e instanceof Error error) {
        throw error;
      }
      throw new TransformsException("Cannot write data file " + location + " of table " + table
          + " with DuckDB: " + e.getMessage(), e);
    }
  }

  private static DataFile dataFile(DuckDbWritePlan plan, CheckedBatches batches, String location, Path path)
      throws IOException {
    DataFile file = WrittenFile.dataFile(plan.table(), plan.table().spec(), null, location, path, batches.fieldMetrics());
    if (file.recordCount() != batches.rows()) {
      throw new IllegalStateException("DuckDB wrote " + file.recordCount() + " rows to " + location
          + " of table " + plan.table().name() + ", " + batches.rows() + " were given");
    }
    return file;
  }

  /** The COPY statement writing the stream's rows to a file. */
  static String copy(DuckDbWritePlan plan, org.apache.arrow.vector.types.pojo.Schema arrow, String stream,
      Path path) {
    StringBuilder select = new StringBuilder("SELECT ");
    List<Types.NestedField> columns = plan.schema().columns();
    for (int i = 0; i < columns.size(); i++) {
      Types.NestedField column = columns.get(i);
      String type = DuckDbWritePlan.sqlType(column.type()).orElseThrow();
      boolean present = arrow.getFields().stream().map(Field::getName).anyMatch(column.name()::equals);
      select.append(i == 0 ? "" : ", ").append(value(column.type(), present ? SqlNames.quote(column.name()) : null, type))
          .append(" AS ").append(SqlNames.quote(column.name()));
    }
    select.append(" FROM ").append(SqlNames.quote(stream));
    return "COPY (" + select + ") TO " + SqlNames.literal(path.toString()) + " ("
        + options(plan.schema(), plan.codec(), plan.zstdLevel()) + ")";
  }

  /**
   * The options of a COPY to a Parquet data file: every column's field id, and the codec and zstd
   * level.
   *
   * @param schema the columns written, by name
   * @param codec the codec, DuckDB's spelling ({@link DuckDbWritePlan#codec})
   * @param zstdLevel the level, used when the codec is zstd
   * @return the options, without parentheses
   */
  static String options(Schema schema, String codec, int zstdLevel) {
    StringBuilder ids = new StringBuilder();
    for (Types.NestedField column : schema.columns()) {
      ids.append(ids.length() == 0 ? "" : ", ").append(SqlNames.literal(column.name())).append(": ")
          .append(column.fieldId());
    }
    return "FORMAT parquet, FIELD_IDS {" + ids + "}, COMPRESSION " + codec
        + (codec.equals("zstd") ? ", COMPRESSION_LEVEL " + zstdLevel : "");
  }

  /** A column's value in DuckDB's type for its Iceberg type. */
  private static String value(Type type, String column, String sqlType) {
    if (column == null) {
      return "CAST(NULL AS " + sqlType + ")";
    }
    if (type.typeId() == Type.TypeID.UUID) {
      // 16 bytes in Arrow (a BLOB in DuckDB), which DuckDB casts to UUID from its hex spelling
      return "CAST(hex(" + column + ") AS UUID)";
    }
    return column;
  }

  private static void deleteQuietly(Path path, Throwable failure) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }



}
