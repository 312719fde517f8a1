package dev.transforms.runtime.internal.publish;

import dev.transforms.runtime.internal.incremental.IncrementalState;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

/**
 * A table as a build of a branch sees it: read-only, with {@code main} at the branch's head and, for an
 * output, the state the branch's last build stored in place of {@code main}'s. The decisions a build
 * makes from its tables (up to date, incremental, what was consumed) then read the branch exactly as
 * they read {@code main} on an ordinary build. A branch whose builds stored no state yet on an output
 * sees {@code main}'s: the state {@code main} had where the branch is cut.
 */
public final class BranchView {

  private BranchView() {}

  /**
   * An input table read at a branch.
   *
   * @param table the table
   * @param ref the branch it is read at
   * @return the table itself for {@code main}, else a read-only view whose {@code main} is that branch
   */
  public static Table input(Table table, String ref) {
    if (ref.equals(SnapshotRef.MAIN_BRANCH)) {
      return table;
    }
    TableMetadata base = ((HasTableOperations) table).operations().current();
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    builder.setBranchSnapshot(base.ref(ref).snapshotId(), SnapshotRef.MAIN_BRANCH);
    return view(table, builder.build());
  }

  /**
   * An input table as a build of a branch reads it: at the branch where the table has it, else at the
   * first of the build's fallbacks it has.
   *
   * @param table the table
   * @param path the input's path, for the message
   * @param branch the build's branch
   * @return the table itself for {@code main}, else a read-only view whose {@code main} is the branch read
   * @throws dev.transforms.api.DatasetNotFoundException naming the table and the branches, if it has none
   */
  public static Table input(Table table, String path, BuildBranch branch) {
    return branch.isMain() ? table : input(table, branch.inputRef(table, path));
  }

  /**
   * An output table as a build of a branch decides from it.
   *
   * @param table the table
   * @param branch the build's branch
   * @return the table itself for {@code main}; else a read-only view with {@code main} at the branch's
   *     head and the branch's stored state in place of {@code main}'s
   */
  public static Table output(Table table, BuildBranch branch) {
    if (branch.isMain()) {
      return table;
    }
    TableMetadata base = ((HasTableOperations) table).operations().current();
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    Snapshot head = branch.head(base);
    if (head != null && base.ref(branch.name()) != null) {
      builder.setBranchSnapshot(head.snapshotId(), SnapshotRef.MAIN_BRANCH);
    }
    Map<String, String> own = new LinkedHashMap<>();
    base.properties().forEach((key, value) -> {
      if (branch.ownsKey(key)) {
        own.put(key.substring(branch.stateKey("").length()), value);
      }
    });
    if (!own.isEmpty()) {
      Set<String> mains = new HashSet<>();
      for (String key : base.properties().keySet()) {
        if (key.startsWith(IncrementalState.PREFIX) || key.startsWith(OutputPublisher.CHECKS_PREFIX)) {
          mains.add(key);
        }
      }
      builder.removeProperties(mains);
      builder.setProperties(own);
    }
    return view(table, builder.build());
  }

  private static Table view(Table table, TableMetadata metadata) {
    return new BaseTable(new StaticTableOperations(metadata, table.io(), table.locationProvider()), table.name());
  }
}
