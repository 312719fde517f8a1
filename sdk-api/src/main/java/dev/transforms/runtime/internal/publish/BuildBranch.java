package dev.transforms.runtime.internal.publish;

import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.runtime.internal.config.BranchNames;
import dev.transforms.runtime.internal.config.BuildSettings;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

/**
 * The branch a build reads and publishes: {@code main} for an ordinary build, or a branch a person
 * names ({@code transforms build --branch NAME}). Inputs are read at that branch where their table has
 * it, else at the first of the fallbacks it has ({@code branch.fallbacks}, {@code main} unless set);
 * outputs are staged from that branch (from {@code main} on its first build) and published to it. The
 * state a build stores on an output is kept apart per branch, under {@code transforms.branch.NAME.}, so
 * that {@code main}'s builds never see it.
 *
 * @param name the branch, {@code main} for an ordinary build
 * @param fallbacks the branches an input is read at, in order, when its table has no branch {@code name}
 */
public record BuildBranch(String name, List<String> fallbacks) {

  /** An ordinary build: reads and publishes {@code main}. */
  public static final BuildBranch MAIN = new BuildBranch(SnapshotRef.MAIN_BRANCH, List.of());

  /** The prefix of the table properties a branch's builds store their state under. */
  public static final String STATE_PREFIX = "transforms.branch.";

  /** Copies the fallbacks. */
  public BuildBranch {
    fallbacks = List.copyOf(fallbacks);
  }

  /**
   * A branch a person names, with the fallbacks the configuration sets.
   *
   * @param name the branch's name
   * @param fallbacks the fallbacks, as {@link BuildSettings#branchFallbacks} reads them
   * @return the branch
   * @throws IllegalArgumentException naming the branch, if the name is not one a branch build may use
   */
  public static BuildBranch named(String name, List<String> fallbacks) {
    return new BuildBranch(BranchNames.check(name), fallbacks);
  }

  /**
   * Whether this is an ordinary build of {@code main}.
   *
   * @return true for {@code main}
   */
  public boolean isMain() {
    return name.equals(SnapshotRef.MAIN_BRANCH);
  }

  /**
   * The branch an input table is read at: this branch if the table has it, else the first fallback it
   * has.
   *
   * @param table the input table
   * @param path the input's path, for the message
   * @return the branch's name
   * @throws DatasetNotFoundException naming the table and the branches, if it has none of them
   */
  public String inputRef(Table table, String path) {
    if (isMain()) {
      return name;
    }
    List<String> tried = new ArrayList<>();
    tried.add(name);
    tried.addAll(fallbacks);
    for (String ref : tried) {
      if (table.refs().containsKey(ref) || (ref.equals(SnapshotRef.MAIN_BRANCH) && table.currentSnapshot() == null)) {
        return ref;
      }
    }
    throw new DatasetNotFoundException("Input " + path + " (" + table.name() + ") has none of the branches " + tried
        + " this build reads; build it on branch " + name + " first, or add a branch it has to "
        + BuildSettings.BRANCH_FALLBACKS);
  }

  /**
   * The snapshot this branch's builds start from on an output: the head of this branch, or of
   * {@code main} while the branch has not been cut on the output yet.
   *
   * @param metadata the output's metadata
   * @return the snapshot, or null when the output has none there
   */
  public Snapshot head(TableMetadata metadata) {
    SnapshotRef ref = metadata.ref(name);
    if (ref != null) {
      return metadata.snapshot(ref.snapshotId());
    }
    return metadata.currentSnapshot();
  }

  /**
   * The table property a build of this branch stores a state key under.
   *
   * @param key the key an ordinary build uses, such as {@code transforms.state.snapshot-id}
   * @return the same key for {@code main}; under {@value #STATE_PREFIX}NAME. for a branch
   */
  public String stateKey(String key) {
    return isMain() ? key : STATE_PREFIX + name + "." + key;
  }

  /**
   * Whether a table property belongs to this branch's stored state (for a branch build).
   *
   * @param key the property
   * @return whether it starts with this branch's prefix
   */
  public boolean ownsKey(String key) {
    return !isMain() && key.startsWith(STATE_PREFIX + name + ".");
  }
}
