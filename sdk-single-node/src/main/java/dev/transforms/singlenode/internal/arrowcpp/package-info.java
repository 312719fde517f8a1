/**
 * Arrow C++'s Parquet reader through the optional {@code arrow-dataset} module: snapshot reads ({@link
 * dev.transforms.singlenode.internal.arrowcpp.ArrowDatasetRead}) and the decoding of files a
 * copy-on-write rewrites for DuckDB to encode ({@link
 * dev.transforms.singlenode.internal.arrowcpp.ArrowCppDecodeRewrite}). Only {@code ArrowDatasetScan} and
 * {@code ArrowDatasetKeptRows} name the module's classes, so the JVM loads them only once it is found.
 *
 * <p>This package is the engine's internals, not the SDK's API.
 */
package dev.transforms.singlenode.internal.arrowcpp;
