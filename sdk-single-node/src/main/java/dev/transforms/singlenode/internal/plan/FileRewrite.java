package dev.transforms.singlenode.internal.plan;

import java.util.Optional;

/**
 * One way to rewrite a data file minus some of its rows (a {@link RewriteStrategy}), as an object the
 * {@link RewritePlanner} puts in a plan and {@link RewriteChain} runs. Every way writes the kept rows in
 * their order, with the table's field ids and the metrics Iceberg's writer records; they differ in speed
 * and in what they take.
 *
 * @param <W> what the operation hands the strategy while rewriting: the file's rows, where to write
 */
public interface FileRewrite<W> {

  /**
   * Which strategy this is: its name in reasons and logs, and the counter its rewrites go to.
   *
   * @return the strategy
   */
  RewriteStrategy strategy();

  /**
   * Why this strategy does not take a file, known before opening it; empty when it may take it.
   *
   * @param request the file
   * @return the reason, such as {@code "turned off (-Dtransforms.page-copy=false)"}; empty otherwise
   */
  Optional<String> declines(RewriteRequest request);

  /**
   * Rewrites the file, or declines while working (having left nothing written) so that the next
   * strategy of the plan rewrites it.
   *
   * @param work the file's rows and where its kept rows go
   * @return what was done; empty when this strategy declined while working
   */
  Optional<Rewritten> rewrite(W work);

  /**
   * What a strategy did with a file.
   *
   * @param dropped the rows the change dropped (0: none, and nothing was written)
   * @param counted whether the strategy wrote the file's kept rows, which counts as its rewrite (not
   *     when no row was dropped, or no row is kept)
   */
  record Rewritten(long dropped, boolean counted) {

    /** Nothing dropped, nothing written. */
    public static final Rewritten NOTHING = new Rewritten(0, false);
  }
}
