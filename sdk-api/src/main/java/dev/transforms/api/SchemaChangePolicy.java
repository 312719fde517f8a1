package dev.transforms.api;

/**
 * What an incremental build may do to the schema of a table output when the rows it writes have
 * other columns than the table: the names dbt users know from {@code on_schema_change}.
 *
 * <p>A full build always gives the output the shape of what it writes (columns, types, partitioning),
 * in the commit that publishes its rows; the policy applies to incremental builds, which add rows to
 * what earlier builds wrote. Whatever the policy, an incremental build never narrows a type, never
 * replaces a column by another of the same name and an incompatible type, never adds a required
 * column and never changes the partitioning: those need a full build ({@code transforms build --full
 * NAME}, or a new {@link Incremental#semanticVersion()}). See {@code docs/changing-a-pipeline.md}.
 */
public enum SchemaChangePolicy {

  /**
   * The policy of the configuration, {@code build.on-schema-change} in {@code transforms.properties};
   * {@link #FAIL} when it is not set.
   */
  CONFIGURED,

  /**
   * An incremental build whose rows do not fit the table fails, naming each column that differs and
   * the way out. The default.
   */
  FAIL,

  /**
   * Columns the rows have and the table does not are added to the table, as optional columns that
   * read as null in earlier rows. Columns the table has and the rows do not are written as null (they
   * must be optional). Types are not changed.
   */
  APPEND_NEW_COLUMNS,

  /**
   * As {@link #APPEND_NEW_COLUMNS}, and also: columns the rows no longer have are dropped from the
   * table (earlier rows keep them in their snapshots, for time travel), types are widened where the
   * widening loses nothing (int to long, float to double, a decimal to more digits of the same scale),
   * and required columns the rows may leave empty become optional.
   */
  SYNC_ALL_COLUMNS
}
