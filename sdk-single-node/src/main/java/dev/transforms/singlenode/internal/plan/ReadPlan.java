package dev.transforms.singlenode.internal.plan;

/**
 * How a snapshot is read into Arrow: the native read chosen, if any, then the engine's reader, and why.
 * A plan runs nothing; {@link ReadChain} runs it.
 *
 * @param strategy the strategy chosen
 * @param reason why, for logs and tests ("page decoder: 1,000,000 rows in 1 file, 7 columns")
 * @param read the native read chosen; null when the engine's reader reads
 * @param planner the planner that made the plan, whose counters the read goes to
 */
public record ReadPlan(ReadStrategy strategy, String reason, ArrowRead read, ReadPlanner planner) {}
