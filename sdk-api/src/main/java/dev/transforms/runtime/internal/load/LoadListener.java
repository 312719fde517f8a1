package dev.transforms.runtime.internal.load;

/** Hears how far a load has read, for progress on large files. */
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
