package dev.transforms.singlenode.edits;

/**
 * Which halves of an {@link RowEdits#upsert upsert} run, named as in PyIceberg's {@code upsert}.
 *
 * <ul>
 *   <li>{@code whenMatchedUpdateAll} (default {@code true}): a source row whose key matches a table
 *       row replaces it when the two differ. When {@code false}, matched rows are left alone.
 *   <li>{@code whenNotMatchedInsertAll} (default {@code true}): a source row whose key matches no
 *       table row is appended. When {@code false}, such rows are dropped.
 *   <li>{@code caseSensitive} (default {@code true}): whether join column names must match the
 *       table's columns in case, as PyIceberg's {@code case_sensitive}.
 *   <li>{@code updateEveryMatchingRow} (default {@code false}): what happens when several table rows
 *       share a source key. By default the upsert fails, as PyIceberg's does ("duplicate keys in
 *       the target"), naming up to ten such keys, and the table is unchanged. When {@code true},
 *       every matching table row that differs from the source row is replaced by a copy of it, as
 *       SQL {@code MERGE} updates every matching target row; no row is dropped.
 * </ul>
 *
 * <p>Instances are immutable; build one with {@link #builder()} or use one of the shortcuts.
 */
public final class UpsertOptions {
  private static final UpsertOptions DEFAULTS = new UpsertOptions(true, true, true, false);

  private final boolean whenMatchedUpdateAll;
  private final boolean whenNotMatchedInsertAll;
  private final boolean caseSensitive;
  private final boolean updateEveryMatchingRow;

  private UpsertOptions(
      boolean whenMatchedUpdateAll,
      boolean whenNotMatchedInsertAll,
      boolean caseSensitive,
      boolean updateEveryMatchingRow) {
    this.whenMatchedUpdateAll = whenMatchedUpdateAll;
    this.whenNotMatchedInsertAll = whenNotMatchedInsertAll;
    this.caseSensitive = caseSensitive;
    this.updateEveryMatchingRow = updateEveryMatchingRow;
  }

  /**
   * Returns the default options: update matched rows and insert unmatched ones.
   *
   * @return the defaults
   */
  public static UpsertOptions defaults() {
    return DEFAULTS;
  }

  /**
   * Returns options that skip the update half: only rows with new keys are inserted.
   *
   * @return insert-only options
   */
  public static UpsertOptions skipUpdate() {
    return new UpsertOptions(false, true, true, false);
  }

  /**
   * Returns options that skip the insert half: only rows with existing keys are updated.
   *
   * @return update-only options
   */
  public static UpsertOptions skipInsert() {
    return new UpsertOptions(true, false, true, false);
  }

  /**
   * Starts a builder holding the defaults.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns whether matched rows that differ from their source row are replaced.
   *
   * @return {@code true} when the update half runs
   */
  public boolean whenMatchedUpdateAll() {
    return whenMatchedUpdateAll;
  }

  /**
   * Returns whether source rows with new keys are inserted.
   *
   * @return {@code true} when the insert half runs
   */
  public boolean whenNotMatchedInsertAll() {
    return whenNotMatchedInsertAll;
  }

  /**
   * Returns whether join column names must match the table's columns in case.
   *
   * @return {@code true} (the default) for an exact match
   */
  public boolean caseSensitive() {
    return caseSensitive;
  }

  /**
   * Returns whether every table row matching a source key is updated, as SQL {@code MERGE} does,
   * instead of failing when the table holds a matched key more than once.
   *
   * @return {@code false} (the default) to fail on duplicate keys in the table
   */
  public boolean updateEveryMatchingRow() {
    return updateEveryMatchingRow;
  }

  @Override
  public String toString() {
    return "UpsertOptions{whenMatchedUpdateAll="
        + whenMatchedUpdateAll
        + ", whenNotMatchedInsertAll="
        + whenNotMatchedInsertAll
        + (caseSensitive ? "" : ", caseSensitive=false")
        + (updateEveryMatchingRow ? ", updateEveryMatchingRow=true" : "")
        + "}";
  }

  /** Builds {@link UpsertOptions}; starts from the defaults. */
  public static final class Builder {
    private boolean whenMatchedUpdateAll = true;
    private boolean whenNotMatchedInsertAll = true;
    private boolean caseSensitive = true;
    private boolean updateEveryMatchingRow = false;

    private Builder() {}

    /**
     * Sets whether join column names must match the table's columns in case.
     *
     * @param exact {@code false} to match names whatever their case
     * @return this builder
     */
    public Builder caseSensitive(boolean exact) {
      this.caseSensitive = exact;
      return this;
    }

    /**
     * Sets whether every table row matching a source key is updated, as SQL {@code MERGE} does,
     * when the table holds that key more than once; by default such an upsert fails.
     *
     * @param everyRow {@code true} to update every matching row
     * @return this builder
     */
    public Builder updateEveryMatchingRow(boolean everyRow) {
      this.updateEveryMatchingRow = everyRow;
      return this;
    }

    /**
     * Sets whether matched rows that differ from their source row are replaced.
     *
     * @param update {@code false} to skip the update half
     * @return this builder
     */
    public Builder whenMatchedUpdateAll(boolean update) {
      this.whenMatchedUpdateAll = update;
      return this;
    }

    /**
     * Sets whether source rows with new keys are inserted.
     *
     * @param insert {@code false} to skip the insert half
     * @return this builder
     */
    public Builder whenNotMatchedInsertAll(boolean insert) {
      this.whenNotMatchedInsertAll = insert;
      return this;
    }

    /**
     * Returns the options.
     *
     * @return immutable options
     */
    public UpsertOptions build() {
      return new UpsertOptions(
          whenMatchedUpdateAll, whenNotMatchedInsertAll, caseSensitive, updateEveryMatchingRow);
    }
  }
}
