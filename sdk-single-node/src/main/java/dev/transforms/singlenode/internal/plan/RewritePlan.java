package dev.transforms.singlenode.internal.plan;

import java.util.List;

/**
 * How a copy-on-write rewrites one data file: the strategy chosen first, then its fallbacks, in order,
 * and why the first was chosen. A plan runs nothing; {@link RewriteChain} runs it.
 *
 * @param chain the strategies to try, the chosen one first; never empty
 * @param reason why, for logs and tests ("page copy: 1,000,000 rows", "engine: forced")
 * @param planner the planner that made the plan, whose counters the rewrite goes to
 * @param <W> what the strategies are handed while rewriting
 */
public record RewritePlan<W>(List<FileRewrite<? super W>> chain, String reason, RewritePlanner planner) {

  /**
   * The strategy chosen first.
   *
   * @return the first strategy of the chain
   */
  public RewriteStrategy strategy() {
    return chain.get(0).strategy();
  }
}
