package dev.transforms.singlenode.internal.duckdb;

import dev.transforms.singlenode.internal.plan.DirectScan;
import dev.transforms.singlenode.internal.schema.ArrowSchemaMapping;
import dev.transforms.singlenode.internal.parquet.WriterSettings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Whether the data files of a table can be written by DuckDB ({@link DuckDbParquetWriter}) instead of
 * Iceberg's Java Parquet writer, decided once per table and schema, and the settings DuckDB then writes
 * with. This class refers to no DuckDB class, so that it can be asked when DuckDB is not on the class
 * path.
 *
 * <p>DuckDB writes a table when: DuckDB and Arrow's C data interface are on the class path, and the
 * JVM opens {@code java.nio} to Arrow (the C data interface fails otherwise); the files
 * are Parquet; the table is unpartitioned, of format version 1 or 2 (version 3 carries row lineage), with
 * a plain-text location on the local file system; its codec is zstd, snappy, gzip or uncompressed; and
 * every column is of a type DuckDB writes exactly as Iceberg's spec asks: boolean, int, long, float,
 * double, decimal of precision up to 18 or from 36 on, date, time, timestamp, timestamptz, string,
 * binary, uuid. Fixed, decimals of precision 19 to 35 (DuckDB stores them in 16 bytes, Iceberg in
 * fewer), nested and nanosecond types go through the Java writer.
 *
 * @param schema the schema the files are written with
 * @param codec the Parquet codec, DuckDB's spelling
 * @param zstdLevel the zstd level, used when the codec is zstd
 */
public record DuckDbWritePlan(Table table, Schema schema, String codec, int zstdLevel) {

  private static final Set<String> CODECS = Set.of("zstd", "snappy", "gzip", "uncompressed");

  private static final boolean AVAILABLE = DuckDbLibrary.present();

  /**
   * Plans DuckDB writes of a table, when they are possible.
   *
   * @param format the file format the writer was asked for
   * @return the plan, or empty when the table's files must be written by Iceberg's Java writer
   */
  public static Optional<DuckDbWritePlan> of(Table table, FileFormat format) {
    if (!AVAILABLE || format != FileFormat.PARQUET || !table.spec().isUnpartitioned()) {
      return Optional.empty();
    }
    Schema schema = table.schema();
    if (schema.columns().isEmpty() || !schema.columns().stream().allMatch(c -> writable(c.type()))) {
      return Optional.empty();
    }
    try {
      if (TableUtil.formatVersion(table) >= 3) {
        return Optional.empty();
      }
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // a table without metadata operations: do not guess
    }
    if (DirectScan.localPath(table.locationProvider().newDataLocation("probe.parquet")).isEmpty()
        || !(table.encryption() instanceof org.apache.iceberg.encryption.PlaintextEncryptionManager)) {
      return Optional.empty();
    }
    Optional<String> codec = codec(table.properties());
    java.util.OptionalInt level = WriterSettings.zstdLevel(table.properties());
    if (codec.isEmpty() || level.isEmpty()) {
      return Optional.empty(); // the Java writer reports a bad level
    }
    return Optional.of(new DuckDbWritePlan(table, schema, codec.get(), level.getAsInt()));
  }

  /**
   * DuckDB's name of a table's Parquet codec, when DuckDB writes that codec.
   *
   * @return the codec, or empty
   */
  static Optional<String> codec(Map<String, String> properties) {
    String codec = WriterSettings.codec(properties);
    return CODECS.contains(codec) ? Optional.of(codec) : Optional.empty();
  }

  /** Whether DuckDB writes a column of this type the way Iceberg's spec and reader want it. */
  static boolean writable(Type type) {
    return switch (type.typeId()) {
      case BOOLEAN, INTEGER, LONG, FLOAT, DOUBLE, DATE, TIME, TIMESTAMP, STRING, BINARY, UUID -> true;
      // DuckDB stores decimals of precision 19 to 38 in 16 bytes; Iceberg's spec asks for the fewest
      // bytes the precision needs (15 bytes hold 35 digits), which is 16 only from precision 36 on.
      case DECIMAL -> ((Types.DecimalType) type).precision() <= 18 || ((Types.DecimalType) type).precision() >= 36;
      default -> false;
    };
  }

  /**
   * Whether DuckDB can write rows of this Arrow schema: each column the table has is given in the Arrow
   * type the engine's readers produce for it (no conversion to repeat in SQL), extra columns are absent,
   * and columns the Arrow data lacks are optional.
   *
   * @param arrow the schema of the rows to write, already checked with {@code ArrowSchemaMapping.differences}
   * @return true when {@link DuckDbParquetWriter} can write the rows
   */
  public boolean accepts(org.apache.arrow.vector.types.pojo.Schema arrow) {
    List<Field> fields = arrow.getFields();
    for (Field field : fields) {
      Types.NestedField column = schema.findField(field.getName());
      if (column == null || schema.columns().stream().noneMatch(c -> c.fieldId() == column.fieldId())) {
        return false;
      }
      // a UUID extension vector is not exported as plain bytes
      if (field.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.ExtensionType
          || !field.getType().equals(ArrowSchemaMapping.toArrowType(column.type()))) {
        return false;
      }
    }
    return true;
  }

  /** The DuckDB type a column is read as, the one the engine's Arrow batches load as. */
  public static Optional<String> sqlType(Type type) {
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
}
