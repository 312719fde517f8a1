/**
 * Where the engine chooses how a snapshot is read into Arrow ({@link
 * dev.transforms.singlenode.internal.plan.ReadPlanner}, table {@link
 * dev.transforms.singlenode.internal.plan.ReadStrategy}), how a copy-on-write rewrites a file ({@link
 * dev.transforms.singlenode.internal.plan.RewritePlanner}, table {@link
 * dev.transforms.singlenode.internal.plan.RewriteStrategy}) and how {@code writeTable} writes Arrow rows
 * ({@link dev.transforms.singlenode.internal.plan.WritePlanner}, table {@link
 * dev.transforms.singlenode.internal.plan.WriteStrategy}): one named strategy, its fallbacks and the reason.
 *
 * <p>Each strategy is a class implementing an interface of this package ({@link
 * dev.transforms.singlenode.internal.plan.FileRewrite}, {@link
 * dev.transforms.singlenode.internal.plan.NativeReader} and {@link
 * dev.transforms.singlenode.internal.plan.ArrowRead}, {@link
 * dev.transforms.singlenode.internal.plan.RootWrite}) and lives in the package of what it is (Parquet pages,
 * the engine's rows, Arrow); the operations offer their strategies to a planner, which returns a plan and
 * runs nothing, and {@link dev.transforms.singlenode.internal.plan.RewriteChain} and {@link
 * dev.transforms.singlenode.internal.plan.ReadChain} run plans. So this package imports none of the
 * strategies' packages. Planners are objects: each counts what its strategies did and may force one
 * ({@code forced}); operations ask the {@code standard()} ones unless given others. {@link
 * dev.transforms.singlenode.internal.plan.DirectScan} holds the files of a snapshot a native read can take,
 * found once per snapshot.
 *
 * <p>This package is the engine's internals, not the SDK's API.
 */
package dev.transforms.singlenode.internal.plan;
