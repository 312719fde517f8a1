package dev.transforms.singlenode.internal.parquet;

import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.TableProperties;

/**
 * Settings the engine's Parquet writers add to a table's own properties, only where the table leaves
 * the choice open.
 *
 * <p>zstd, the codec Iceberg gives new tables, compresses at Parquet's default level 3 unless the table sets
 * {@code write.parquet.compression-level}. A table that sets no level gets level 1 here, the level
 * Arrow C++ (and so PyIceberg) writes zstd with by default: compressing costs less, files come out a
 * few percent larger. A level the table sets is always kept, and so is any other codec.
 */
public final class WriterSettings {
  /** The zstd level written when the table names none. */
  public static final String DEFAULT_ZSTD_LEVEL = "1";

  private WriterSettings() {}

  /**
   * Writer properties to pass to Iceberg's writer factories beside the table's, which they override.
   *
   * @return an empty map, or the zstd level to use when the table sets none
   */
  public static Map<String, String> writerProperties(Map<String, String> tableProperties) {
    if (!"zstd".equals(codec(tableProperties))
        || tableProperties.containsKey(TableProperties.PARQUET_COMPRESSION_LEVEL)) {
      return Map.of();
    }
    return Map.of(TableProperties.PARQUET_COMPRESSION_LEVEL, DEFAULT_ZSTD_LEVEL);
  }

  /**
   * A table's Parquet codec, in lower case.
   *
   * @return the codec, such as {@code zstd}
   */
  public static String codec(Map<String, String> properties) {
    return properties.getOrDefault(TableProperties.PARQUET_COMPRESSION, TableProperties.PARQUET_COMPRESSION_DEFAULT)
        .toLowerCase(Locale.ROOT);
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
