/**
 * Arrow C++'s Parquet reader through the optional {@code arrow-dataset} module, for snapshot reads
 * ({@link dev.transforms.singlenode.internal.arrowcpp.ArrowDatasetRead}). Only {@code ArrowDatasetScan}
 * names the module's classes, so the JVM loads it only once the module is found.
 *
 * <p>This package is the engine's internals, not the SDK's API.
 */
package dev.transforms.singlenode.internal.arrowcpp;
