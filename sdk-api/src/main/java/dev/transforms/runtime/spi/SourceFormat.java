package dev.transforms.runtime.spi;

import dev.transforms.api.InvalidLoadException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The formats a load reads.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 */
public enum SourceFormat {
  /** Comma-separated values (RFC 4180 quoting), a header line naming the columns unless told otherwise. */
  CSV,
  /** JSON lines: one JSON object per line, its keys naming the columns. */
  JSON,
  /** Parquet files, which carry their schema. */
  PARQUET;

  /**
   * The format a file name says: {@code .csv}, {@code .tsv}, {@code .json}, {@code .jsonl},
   * {@code .ndjson} or {@code .parquet}, each possibly followed by {@code .gz} (not Parquet).
   *
   * @param file the file
   * @return the format, or empty when the name says none
   */
  public static Optional<SourceFormat> ofFileName(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".gz")) {
      name = name.substring(0, name.length() - 3);
      if (name.endsWith(".parquet")) {
        return Optional.empty();
      }
    }
    if (name.endsWith(".csv") || name.endsWith(".tsv")) {
      return Optional.of(CSV);
    }
    if (name.endsWith(".json") || name.endsWith(".jsonl") || name.endsWith(".ndjson")) {
      return Optional.of(JSON);
    }
    if (name.endsWith(".parquet")) {
      return Optional.of(PARQUET);
    }
    return Optional.empty();
  }

  /**
   * The format named on the command line.
   *
   * @param name {@code csv}, {@code json} or {@code parquet}, in any case
   * @return the format
   * @throws InvalidLoadException for any other name
   */
  public static SourceFormat named(String name) {
    for (SourceFormat format : values()) {
      if (format.name().equalsIgnoreCase(name.strip())) {
        return format;
      }
    }
    throw new InvalidLoadException("Unknown format '" + name + "'; use csv, json or parquet");
  }

  /**
   * Whether the files of this format carry their own schema.
   *
   * @return true for Parquet
   */
  public boolean carriesSchema() {
    return this == PARQUET;
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
