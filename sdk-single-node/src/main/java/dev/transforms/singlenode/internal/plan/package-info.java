/**
 * Where the engine chooses how a snapshot is read into Arrow ({@link
 * dev.transforms.singlenode.internal.plan.ReadPlanner}, table {@link
 * dev.transforms.singlenode.internal.plan.ReadStrategy}) and how a copy-on-write rewrites a file ({@link
 * dev.transforms.singlenode.internal.plan.RewritePlanner}, table {@link
 * dev.transforms.singlenode.internal.plan.RewriteStrategy}): one named strategy and the reason. The
 * strategies live in the packages of what they are (Parquet pages, the engine's rows); operations ask
 * the planners and never name them. {@link dev.transforms.singlenode.internal.plan.DirectScan} holds the
 * files of a snapshot a native read can take, found once per snapshot.
 *
 * <p>This package is the engine's internals, not the SDK's API.
 */
package dev.transforms.singlenode.internal.plan;
