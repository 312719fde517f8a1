package dev.transforms.singlenode.internal.sql;

import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The data files of one snapshot when they hold exactly its rows and DuckDB can read them itself: every
 * file is Parquet on the local file system, no file has a delete file against it, the files carry the
 * Iceberg field ids (no name mapping), and every column is of a type DuckDB reads to the same values
 * the engine's reader gives. Columns are found by field id, so renamed columns read right, and a column
 * a file lacks (added later) reads as null, as in Iceberg.
 *
 * <p>When any of this does not hold, {@link #plan} answers empty and the rows go through the engine's
 * reader, which applies deletes and reads any file system.
 *
 * @param files the local paths of the data files
 * @param schema the schema of the rows
 * @param rows the rows the files hold, from the table's metadata
 */
public record DirectScan(List<Path> files, Schema schema, long rows) {

  public DirectScan {
    files = List.copyOf(files);
  }

  /**
   * Plans the direct scan of a snapshot, if one is possible.
   *
   * @param table the table
   * @param snapshotId the snapshot to read
   * @return the scan, whose schema is the snapshot's as the engine's reader reads it; or empty when the
   *     rows must go through the engine's reader
   */
  public static Optional<DirectScan> plan(Table table, long snapshotId) {
    return plan(table, snapshotId, table.newScan().useSnapshot(snapshotId).schema());
  }

  /**
   * Plans the direct scan of some columns of a snapshot, if one is possible.
   *
   * @param table the table
   * @param snapshotId the snapshot to read
   * @param schema the columns to read: the snapshot's schema or a selection of its top-level columns
   * @return the scan, or empty when the rows must go through the engine's reader
   */
  public static Optional<DirectScan> plan(Table table, long snapshotId, Schema schema) {
    SnapshotFiles.existing(table, snapshotId);
    if (schema.columns().isEmpty() || table.properties().containsKey(TableProperties.DEFAULT_NAME_MAPPING)
        || !readable(table, schema)) {
      return Optional.empty();
    }
    return SnapshotFiles.of(table, snapshotId)
        .filter(files -> !files.paths().isEmpty())
        .map(files -> new DirectScan(files.paths(), schema, files.rows()));
  }

  /**
   * Whether every column can be read by DuckDB by field id: a primitive type DuckDB reads exactly, with
   * no initial default, and of that same type in every schema the table has had that holds it (files
   * written before a type promotion hold the narrower type).
   */
  private static boolean readable(Table table, Schema schema) {
    return schema.columns().stream().allMatch(c -> sqlType(c.type()).isPresent() && plainFileColumn(table, c));
  }

  /**
   * Whether every file of the table holds a column as the current schema has it, so that a reader of
   * the files needs no Iceberg logic for it: no initial default, and the same type in every schema the
   * table has had that holds the column (files written before a type promotion hold the narrower type).
   *
   * @param table the table
   * @param column a column of its schema
   * @return whether the column can be read from the files as they are
   */
  static boolean plainFileColumn(Table table, Types.NestedField column) {
    if (column.initialDefault() != null) {
      return false;
    }
    for (Schema earlier : table.schemas().values()) {
      Types.NestedField then = earlier.findField(column.fieldId());
      if (then != null && !then.type().equals(column.type())) {
        return false;
      }
    }
    return true;
  }

  /** The DuckDB type a column is read as, the one the engine's Arrow batches load as. */
  static Optional<String> sqlType(Type type) {
    return Optional.ofNullable(switch (type.typeId()) {
      case BOOLEAN -> "BOOLEAN";
      case INTEGER -> "INTEGER";
      case LONG -> "BIGINT";
      case FLOAT -> "FLOAT";
      case DOUBLE -> "DOUBLE";
      case DATE -> "DATE";
      case TIME -> "TIME";
      case TIMESTAMP -> ((Types.TimestampType) type).shouldAdjustToUTC() ? "TIMESTAMP WITH TIME ZONE" : "TIMESTAMP";
      case STRING -> "VARCHAR";
      case UUID -> "UUID";
      case BINARY, FIXED -> "BLOB";
      case DECIMAL -> "DECIMAL(" + ((Types.DecimalType) type).precision() + ", " + ((Types.DecimalType) type).scale()
          + ")";
      default -> null;
    });
  }

  /**
   * The local path of a file location, when it is on the local file system.
   *
   * @param location a location ({@code /...} or {@code file:...})
   * @return the path, or empty for any other scheme
   */
  static Optional<Path> localPath(String location) {
    if (location.startsWith("/")) {
      return Optional.of(Paths.get(location));
    }
    if (location.startsWith("file:")) {
      try {
        return Optional.of(Paths.get(URI.create(location.startsWith("file:/") && !location.startsWith("file://")
            ? "file://" + location.substring("file:".length()) : location)));
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * A DuckDB table function call that reads the files: {@code read_parquet} over the file list, with
   * each column found by its field id and typed as the engine's reader would load it.
   *
   * @return the SQL of the call
   */
  public String readParquet() {
    return readParquet(false);
  }

  /**
   * {@link #readParquet()}, with DuckDB's {@code file_row_number} column (a row's position in its file,
   * Iceberg's {@code _pos}) when asked.
   *
   * @param rowNumbers whether to add the {@code file_row_number} column
   * @return the SQL of the call
   */
  String readParquet(boolean rowNumbers) {
    StringBuilder sql = new StringBuilder("read_parquet([");
    for (int i = 0; i < files.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append(SqlNames.literal(files.get(i).toString()));
    }
    sql.append("], schema = MAP {");
    List<Types.NestedField> columns = schema.columns();
    for (int i = 0; i < columns.size(); i++) {
      Types.NestedField column = columns.get(i);
      sql.append(i == 0 ? "" : ", ").append(column.fieldId())
          .append(": {name: ").append(SqlNames.literal(column.name()))
          .append(", type: ").append(SqlNames.literal(sqlType(column.type()).orElseThrow()))
          .append(", default_value: NULL}");
    }
    return sql.append('}').append(rowNumbers ? ", file_row_number = true" : "").append(')').toString();
  }

}
