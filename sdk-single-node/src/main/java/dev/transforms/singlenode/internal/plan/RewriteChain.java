package dev.transforms.singlenode.internal.plan;

import java.util.Optional;

/**
 * Runs a {@link RewritePlan}: the one place a rewrite strategy runs. It tries the chosen strategy and, when
 * a strategy declines while working, the next one; the strategy that rewrote the file is counted on the
 * plan's planner and logged with the plan's reason.
 */
public final class RewriteChain {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RewriteChain.class);

  private RewriteChain() {}

  /**
   * Rewrites a file by its plan.
   *
   * @param plan the strategies, in order
   * @param work the file's rows and where its kept rows go
   * @param <W> what the strategies are handed
   * @return how many rows the change dropped (0: none, and nothing was written)
   * @throws IllegalStateException if every strategy declined (the last of a chain never does)
   */
  public static <W> long run(RewritePlan<W> plan, W work) {
    for (FileRewrite<? super W> strategy : plan.chain()) {
      Optional<FileRewrite.Rewritten> done = strategy.rewrite(work);
      if (done.isPresent()) {
        if (done.get().counted()) {
          LOG.debug("Rewrote a file by the {} ({})", strategy.strategy().label(), plan.reason());
          plan.planner().count(strategy.strategy());
        }
        return done.get().dropped();
      }
    }
    throw new IllegalStateException("No strategy of the plan rewrote the file: " + plan.reason());
  }
}
