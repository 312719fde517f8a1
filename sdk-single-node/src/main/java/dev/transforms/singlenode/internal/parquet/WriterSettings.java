package dev.transforms.singlenode.internal.parquet;

import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.TableProperties;

/**
 * Settings the engine's Parquet writers add to a table's own properties, only where the table leaves
 * the choice open.
 *
 * <p>A table without {@code write.parquet.compression-codec} is written in zstd. That is the codec of
 * the files such tables hold: PyIceberg and Spark create tables without the property and write zstd,
 * while Iceberg Java writes zstd into the properties of the tables it creates. Iceberg Java's writer
 * would fall back to gzip there, the default of Iceberg before 1.4, which writes several times slower;
 * this differs from it on purpose. A codec the table sets is always kept.
 *
 * <p>zstd compresses at Parquet's default level 3 unless the table sets
 * {@code write.parquet.compression-level}. A table that sets no level gets level 1 here, the level
 * Arrow C++ (and so PyIceberg) writes zstd with by default: compressing costs less, files come out a
 * few percent larger. A level the table sets is always kept.
 */
public final class WriterSettings {
  /** The codec written when the table names none. */
  public static final String DEFAULT_CODEC = "zstd";

  /** The zstd level written when the table names none. */
  public static final String DEFAULT_ZSTD_LEVEL = "1";

  private WriterSettings() {}

  /**
   * Writer properties to pass to Iceberg's writer factories beside the table's, which they override.
   *
   * @return the codec when the table sets none (zstd), and the zstd level when the table sets none; or
   *     an empty map when the table sets both, or another codec
   */
  public static Map<String, String> writerProperties(Map<String, String> tableProperties) {
    Map<String, String> added = new java.util.HashMap<>();
    if (!tableProperties.containsKey(TableProperties.PARQUET_COMPRESSION)) {
      added.put(TableProperties.PARQUET_COMPRESSION, DEFAULT_CODEC);
    }
    if ("zstd".equals(codec(tableProperties))
        && !tableProperties.containsKey(TableProperties.PARQUET_COMPRESSION_LEVEL)) {
      added.put(TableProperties.PARQUET_COMPRESSION_LEVEL, DEFAULT_ZSTD_LEVEL);
    }
    return Map.copyOf(added);
  }

  /**
   * The codec a table's files are written in, in lower case: its own, or zstd when it sets none.
   *
   * @return the codec, such as {@code zstd}
   */
  public static String codec(Map<String, String> properties) {
    return properties.getOrDefault(TableProperties.PARQUET_COMPRESSION, DEFAULT_CODEC).toLowerCase(Locale.ROOT);
  }

  /**
   * The zstd level a table's files are written with: its own, or the engine's default.
   *
   * @return the level, or empty when the table's is not a number
   */
  public static java.util.OptionalInt zstdLevel(Map<String, String> properties) {
    try {
      return java.util.OptionalInt.of(Integer.parseInt(properties.getOrDefault(
          TableProperties.PARQUET_COMPRESSION_LEVEL, DEFAULT_ZSTD_LEVEL).strip()));
    } catch (NumberFormatException e) {
      return java.util.OptionalInt.empty();
    }
  }
}
