/**
 * Row-level edits without Spark: {@link dev.transforms.singlenode.edits.RowEdits} upserts, deletes
 * and overwrites rows of an Iceberg table, copy-on-write or merge-on-read.
 */
package dev.transforms.singlenode.edits;
