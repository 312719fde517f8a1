/**
 * Row-filter strings in PyIceberg's syntax, parsed into Iceberg expressions
 * ({@link dev.transforms.singlenode.filter.RowFilter}).
 */
package dev.transforms.singlenode.filter;
