package dev.transforms.singlenode.edits;

/**
 * Which halves of an {@link RowEdits#upsert upsert} run, named as in PyIceberg's {@code upsert}.
 *
 * <ul>
 *   <li>{@code whenMatchedUpdateAll} (default {@code true}): a source row whose key matches a table
 *       row replaces it when the two differ. When {@code false}, matched rows are left alone.
 *   <li>{@code whenNotMatchedInsertAll} (default {@code true}): a source row whose key matches no
 *       table row is appended. When {@code false}, such rows are dropped.
 * </ul>
 *
 * <p>Instances are immutable; build one with {@link #builder()} or use one of the shortcuts.
 */
public final class UpsertOptions {
  private static final UpsertOptions DEFAULTS = new UpsertOptions(true, true);

  private final boolean whenMatchedUpdateAll;
  private final boolean whenNotMatchedInsertAll;

  private UpsertOptions(boolean whenMatchedUpdateAll, boolean whenNotMatchedInsertAll) {
    this.whenMatchedUpdateAll = whenMatchedUpdateAll;
    this.whenNotMatchedInsertAll = whenNotMatchedInsertAll;
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
    return new UpsertOptions(false, true);
  }

  /**
   * Returns options that skip the insert half: only rows with existing keys are updated.
   *
   * @return update-only options
   */
  public static UpsertOptions skipInsert() {
    return new UpsertOptions(true, false);
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

  @Override
  public String toString() {
    return "UpsertOptions{whenMatchedUpdateAll="
        + whenMatchedUpdateAll
        + ", whenNotMatchedInsertAll="
        + whenNotMatchedInsertAll
        + "}";
  }

  /** Builds {@link UpsertOptions}; starts from the defaults. */
  public static final class Builder {
    private boolean whenMatchedUpdateAll = true;
    private boolean whenNotMatchedInsertAll = true;

    private Builder() {}

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
      return new UpsertOptions(whenMatchedUpdateAll, whenNotMatchedInsertAll);
    }
  }
}
