package dev.transforms.runtime.spi;

/**
 * Hears how far a load has read, for progress on large files.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 */
public interface LoadListener {

  /** A listener that ignores everything. */
  LoadListener NONE = (file, bytesRead, bytesTotal, rows) -> { };

  /**
   * Called as a file is read, every few thousand rows and once at its end.
   *
   * @param file the file
   * @param bytesRead bytes of the file read so far (compressed bytes for a gzipped file)
   * @param bytesTotal the file's size
   * @param rows rows read from the file so far
   */
  void reading(SourceFile file, long bytesRead, long bytesTotal, long rows);
}
