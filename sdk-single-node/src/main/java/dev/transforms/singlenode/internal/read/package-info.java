/**
 * Where the single-node engine applies deletes: {@link dev.transforms.singlenode.internal.read.LiveRows}
 * reads the live rows of one data file (position deletes, deletion vectors and equality deletes
 * applied), with the engine's own Parquet cursor where it can and Iceberg's generic reader
 * elsewhere. Arrow scans, row edits, appended-row reads and the changelog all read through it.
 *
 * <p>This package is the engine's internals, not the SDK's API: its classes are public only so that
 * the engine's other packages can use them, and they may change in any release.
 */
package dev.transforms.singlenode.internal.read;
