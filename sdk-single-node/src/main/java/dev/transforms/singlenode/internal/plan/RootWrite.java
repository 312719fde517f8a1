package dev.transforms.singlenode.internal.plan;

import java.util.Optional;

/**
 * One way to write Arrow rows into new data files (a {@link WriteStrategy}), as an object the {@link
 * WritePlanner} chooses and the writer runs.
 *
 * @param <W> the rows and the files they go to
 */
public interface RootWrite<W> {

  /**
   * Which strategy this is.
   *
   * @return the strategy
   */
  WriteStrategy strategy();

  /**
   * Why this strategy does not write these rows; empty when it may.
   *
   * @param work the rows and the files they go to
   * @return the reason; empty otherwise
   */
  Optional<String> declines(W work);

  /**
   * Writes the rows.
   *
   * @param work the rows and the files they go to
   * @return the rows written
   */
  long write(W work);
}
