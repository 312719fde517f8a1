package dev.transforms.runtime.internal.load;

/** What a load does to the table it writes. */
public enum LoadMode {
  /** Creates the table; a table that exists already is an error and is left as it is. */
  CREATE,
  /** Adds the rows to the table, creating it if it does not exist. */
  APPEND,
  /** Replaces every row of the table with the rows loaded, creating it if it does not exist. */
  REPLACE
}
