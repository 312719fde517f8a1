/**
 * What both engines share to read a table's changes and apply them to a dimension: the range of
 * snapshots a read covers, and the rules that fold one change into the rows of one key.
 */
package dev.transforms.runtime.internal.changes;
