/**
 * The single-node engine's own threads, shared by its reading code and its row edits: {@link
 * dev.transforms.singlenode.internal.threads.BackgroundThreads} runs work beside the calling thread
 * (decompressing pages ahead of a reader, writing delete files or the second half of a rewrite),
 * and {@link dev.transforms.singlenode.internal.threads.CallerRunsExecutor} runs in the caller the small
 * jobs that Iceberg would hand to its polling worker pools.
 *
 * <p>This package is the engine's internals, not the SDK's API: its classes are public only so that
 * the engine's other packages can use them, and they may change in any release.
 */
package dev.transforms.singlenode.internal.threads;
