/**
 * The single-node engine's part of {@code transforms load}: reading CSV, JSON lines and Parquet
 * files into a staged table.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.singlenode.internal.load;
