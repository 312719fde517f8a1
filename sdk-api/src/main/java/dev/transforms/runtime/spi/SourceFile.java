package dev.transforms.runtime.spi;

import dev.transforms.api.InvalidLoadException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One file a load reads, with its format.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 *
 * @param path the file
 * @param format its format
 */
public record SourceFile(Path path, SourceFormat format) {

  /**
   * A file whose format comes from its name, unless one is given.
   *
   * @param path the file, which must exist
   * @param format the format named on the command line, or empty to go by the file name
   * @return the file
   * @throws InvalidLoadException if the file does not exist, is a folder or not a regular file, or its
   *     name says no format and none is given
   */
  public static SourceFile of(Path path, Optional<SourceFormat> format) {
    if (Files.isDirectory(path)) {
      throw new InvalidLoadException("File " + path + " is a folder; name the files to load");
    }
    if (!Files.isRegularFile(path)) {
      // /dev/null, a named pipe or a socket: there, but with no rows to read (a pipe would wait for a writer).
      throw new InvalidLoadException("File " + path + (Files.exists(path) ? " exists but is not a regular file (a "
          + "device, a pipe or a socket); name a file to load" : " does not exist"));
    }
    if (!Files.isReadable(path)) {
      throw new InvalidLoadException("File " + path + " cannot be read: permission denied");
    }
    SourceFormat chosen = format.or(() -> SourceFormat.ofFileName(path)).orElseThrow(() ->
        new InvalidLoadException("File " + path + " has no extension that names its format (.csv, .tsv, .json, "
            + ".jsonl, .ndjson, .parquet, or .gz after a text one); give --format csv, json or parquet"));
    return new SourceFile(path, chosen);
  }

  /**
   * Whether the file is gzip-compressed (its name ends with {@code .gz}).
   *
   * @return whether to decompress it
   */
  public boolean gzipped() {
    return path.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".gz");
  }

  /**
   * The file's size on disk.
   *
   * @return bytes, or 0 if it cannot be read
   */
  public long size() {
    try {
      return Files.size(path);
    } catch (java.io.IOException e) {
      return 0;
    }
  }

  @Override
  public String toString() {
    return path.toString();
  }
}
