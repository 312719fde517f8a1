package dev.transforms.singlenode;

import java.util.Map;
import org.apache.iceberg.Table;

/**
 * The {@link Table} an {@link IcebergOutput} hands out while a build runs: every write lands on the
 * build's staging branch, stamped with the build's state, and reaches {@code main} only when the
 * transform returns. {@code RowEdits.on(table)} recognizes it and edits the staging branch.
 */
public interface StagedOutputTable extends Table {

  /**
   * The output table itself, as the catalog loads it (writes to it bypass staging: avoid them).
   *
   * @return the underlying table
   */
  Table baseTable();

  /**
   * The branch this build's writes land on.
   *
   * @return the staging branch name
   */
  String stagingBranch();

  /**
   * The summary properties every commit of this build carries (the incremental state).
   *
   * @return the properties
   */
  Map<String, String> snapshotProperties();

  /**
   * Tells the build that an edit of this output ran to the end, for edits that found nothing to change and so
   * made no snapshot: the output counts as written, and the build stores its state ({@code RowEdits} calls
   * it). Does nothing by default.
   */
  default void edited() {}
}
