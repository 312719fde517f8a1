package dev.transforms.runtime.spi;

import java.nio.file.Path;
import java.util.List;

/**
 * A file output ({@code @Output}, a folder of files) staged by one build: the engine writes the files to
 * {@link #stagingFolder()}, then publishes them all at once or discards them. Readers of the dataset's
 * folder see the old files or the new ones, never a mix, whatever process dies where; the next build
 * cleans up what a dead one left. A build stages one with {@link BuildEnvironment#folders()}.
 */
public interface StagedFolder {

  /**
   * The folder this build writes its files to.
   *
   * @return the version folder of this build (it need not exist yet)
   */
  Path stagingFolder();

  /**
   * What recovery did before staging, one line per action.
   *
   * @return the notes
   */
  List<String> recovered();

  /** Makes the staged files the dataset's content at once, then deletes the previous version. */
  void publish();

  /** Deletes what this build staged; the dataset keeps its content. */
  void discard();
}
