/**
 * Where the single-node engine's Arrow memory comes from (internal):
 * {@link dev.transforms.singlenode.internal.memory.ArrowMemory}. Internal: it may change in any release.
 */
package dev.transforms.singlenode.internal.memory;
