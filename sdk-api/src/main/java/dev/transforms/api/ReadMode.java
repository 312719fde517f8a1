package dev.transforms.api;

/**
 * Which rows an incremental input returns.
 */
public enum ReadMode {
  /** Every row of the input as of this build. */
  CURRENT,
  /** Every row of the input as of the snapshot the last successful build consumed (empty if none). */
  PREVIOUS,
  /** The rows appended since the last successful build; every row on a full build. */
  ADDED
}
