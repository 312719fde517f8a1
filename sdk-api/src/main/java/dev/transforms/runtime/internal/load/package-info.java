/**
 * {@code transforms load}: loading CSV, JSON lines and Parquet files into tables, engine-neutral
 * part.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.load;
