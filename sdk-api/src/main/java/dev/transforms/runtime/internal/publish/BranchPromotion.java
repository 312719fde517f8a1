package dev.transforms.runtime.internal.publish;

import dev.transforms.api.PublishConflictException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.spi.CommitRetry;
import dev.transforms.runtime.spi.CrashPoints;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableCommit;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * What becomes of a branch once built: {@code transforms promote NAME} fast-forwards {@code main} of
 * every output built on it to the branch, with the state the branch's builds stored, and removes the
 * branch; {@code transforms branch drop NAME} removes it with the snapshots (and files) only it holds;
 * {@code transforms branch list} names the branches built on the outputs.
 *
 * <p>Promote checks every table first and refuses, naming them, when {@code main} moved on some since
 * the branch was cut there: nothing is promoted. Tables in one REST catalog are promoted in one
 * multi-table commit, tables in one JDBC catalog (the embedded one) in one database transaction; either
 * is all or nothing. Others are promoted one after the other, each in one commit: if the process dies
 * between two, the branch is still on the tables not yet promoted and promoting again finishes the job,
 * since a table already promoted no longer has the branch.
 */
public final class BranchPromotion {

  private BranchPromotion() {}

  /**
   * The branches built on some outputs: every branch but {@code main} and the SDK's staging branches.
   *
   * @param outputs output tables by path
   * @return each branch with the paths of the outputs that have it, by name
   */
  public static Map<String, List<DatasetPath>> list(Map<DatasetPath, Table> outputs) {
    Map<String, List<DatasetPath>> branches = new TreeMap<>();
    outputs.forEach((path, table) -> {
      table.refresh();
      table.refs().forEach((name, ref) -> {
        if (ref.isBranch() && !name.equals(SnapshotRef.MAIN_BRANCH) && !name.startsWith(StagingMarks.BRANCH_PREFIX)) {
          branches.computeIfAbsent(name, n -> new ArrayList<>()).add(path);
        }
      });
    });
    return branches;
  }

  /**
   * Promotes a branch: on every output that has it, {@code main} fast-forwarded to it, the branch's
   * state made {@code main}'s, the branch and its state removed. When the outputs live in one catalog
   * that can commit several tables at once, they are promoted in one commit: a REST catalog's
   * multi-table commit, or one database transaction of a JDBC catalog ({@link JdbcMultiTableCommit}).
   * Otherwise each table is promoted in a commit of its own.
   *
   * @param branch the branch
   * @param outputs output tables by path, with their catalogs
   * @param catalogProperties the properties of a catalog by name ({@code ResolvedTable.catalog()}), for
   *     the JDBC catalog's connection
   * @return the paths promoted
   * @throws PublishConflictException naming the tables, if {@code main} moved on any since the branch
   *     was cut there; nothing is promoted
   */
  public static List<DatasetPath> promote(BuildBranch branch, List<OutputPublisher.Output> outputs,
      Function<String, Map<String, String>> catalogProperties) {
    Map<OutputPublisher.Output, TableMetadata> having = new LinkedHashMap<>();
    Set<String> moved = new TreeSet<>();
    for (OutputPublisher.Output output : outputs) {
      if (output.existing() == null) {
        continue;
      }
      TableMetadata base = operations(output.existing()).refresh();
      if (base.ref(branch.name()) == null) {
        continue;
      }
      having.put(output, base);
      if (!descends(base, branch.name())) {
        moved.add(output.path() + " (" + output.resolved() + ")");
      }
    }
    if (!moved.isEmpty()) {
      throw new PublishConflictException("Cannot promote branch " + branch.name() + ": main moved since the branch was "
          + "cut on " + String.join(", ", moved) + ". Nothing was promoted. Drop the branch (transforms branch drop "
          + branch.name() + ") and build it again (transforms build --branch " + branch.name() + "), which cuts it "
          + "from main as it is now.");
    }
    Catalog first = having.isEmpty() ? null : having.keySet().iterator().next().catalog();
    boolean together = having.size() > 1 && having.keySet().stream().allMatch(o -> o.catalog() == first);
    if (together && first instanceof RESTCatalog rest) {
      List<TableCommit> commits = new ArrayList<>();
      having.forEach((output, base) ->
          commits.add(TableCommit.create(output.resolved().identifier(), base, promoted(base, branch))));
      rest.commitTransaction(commits);
      CrashPoints.reached("promote.together");
    } else if (together && first instanceof JdbcCatalog) {
      JdbcMultiTableCommit jdbc = new JdbcMultiTableCommit(first.name(),
          catalogProperties.apply(having.keySet().iterator().next().resolved().catalog()));
      promoteFrom(branch, having, "Nothing was promoted.", jdbc::commit);
      CrashPoints.reached("promote.together");
    } else {
      having.forEach((output, checked) -> {
        promoteFrom(branch, Map.of(output, checked), "The outputs promoted before it keep the branch's result.",
            changes -> changes.forEach(c -> c.operations().commit(c.base(), c.updated())));
        CrashPoints.reached("promote.output");
      });
    }
    having.keySet().forEach(o -> o.existing().refresh());
    return having.keySet().stream().map(OutputPublisher.Output::path).toList();
  }

  /**
   * Promotes some tables through {@code commit}, from the metadata the check read and, after another
   * writer's commit, again from the tables as they are then (a table without the branch any more was
   * promoted meanwhile); refuses, saying {@code ifMoved}, where {@code main} moved meanwhile.
   */
  private static void promoteFrom(BuildBranch branch, Map<OutputPublisher.Output, TableMetadata> checked,
      String ifMoved, Consumer<List<JdbcMultiTableCommit.Change>> commit) {
    boolean[] fresh = {true};
    CommitRetry.onConflict(TableCommits.ATTEMPTS).run(() -> {
      List<JdbcMultiTableCommit.Change> changes = new ArrayList<>();
      Set<String> moved = new TreeSet<>();
      checked.forEach((output, read) -> {
        TableOperations operations = operations(output.existing());
        TableMetadata base = fresh[0] ? read : operations.refresh();
        if (base.ref(branch.name()) != null) {
          if (!descends(base, branch.name())) {
            moved.add(output.path() + " (" + output.resolved() + ")");
          }
          changes.add(new JdbcMultiTableCommit.Change(output.resolved().identifier(), operations, base,
              promoted(base, branch)));
        }
      });
      fresh[0] = false;
      if (!moved.isEmpty()) {
        throw new PublishConflictException("Cannot promote branch " + branch.name() + ": main moved while promoting "
            + "on " + String.join(", ", moved) + ". " + ifMoved);
      }
      if (!changes.isEmpty()) {
        commit.accept(changes);
      }
    });
  }

  /**
   * Drops a branch from every output that has it, expiring the snapshots only it reached (deleting the
   * files only they hold) and removing the state its builds stored.
   *
   * @param branch the branch
   * @param outputs output tables by path
   * @return the paths it was dropped from
   */
  public static List<DatasetPath> drop(BuildBranch branch, Map<DatasetPath, Table> outputs) {
    List<DatasetPath> dropped = new ArrayList<>();
    outputs.forEach((path, table) -> {
      table.refresh();
      if (!table.refs().containsKey(branch.name())) {
        return;
      }
      Set<Long> only = BranchSnapshots.onlyOn(table, Set.of(branch.name()));
      TableOperations operations = operations(table);
      CommitRetry.onConflict(TableCommits.ATTEMPTS).run(() -> {
        TableMetadata base = operations.refresh();
        TableMetadata.Builder builder = TableMetadata.buildFrom(base);
        if (base.ref(branch.name()) != null) {
          builder.removeRef(branch.name());
        }
        Set<String> keys = ownKeys(base, branch);
        if (!keys.isEmpty()) {
          builder.removeProperties(keys);
        }
        operations.commit(base, builder.build());
      });
      CrashPoints.reached("drop.branch");
      BranchSnapshots.expire(table, only);
      table.refresh();
      dropped.add(path);
    });
    return dropped;
  }

  /** Whether {@code main} is the branch's head or one of its ancestors (or has no snapshot). */
  private static boolean descends(TableMetadata base, String branch) {
    Snapshot main = base.currentSnapshot();
    if (main == null) {
      return true;
    }
    for (Snapshot s = base.snapshot(base.ref(branch).snapshotId()); s != null;
        s = s.parentId() == null ? null : base.snapshot(s.parentId())) {
      if (s.snapshotId() == main.snapshotId()) {
        return true;
      }
    }
    return false;
  }

  /** {@code main} at the branch, the branch's state made {@code main}'s, the branch and its keys removed. */
  private static TableMetadata promoted(TableMetadata base, BuildBranch branch) {
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    long head = base.ref(branch.name()).snapshotId();
    if (base.currentSnapshot() == null || base.currentSnapshot().snapshotId() != head) {
      builder.setBranchSnapshot(head, SnapshotRef.MAIN_BRANCH);
    }
    builder.removeRef(branch.name());
    Set<String> own = ownKeys(base, branch);
    if (!own.isEmpty()) {
      Map<String, String> state = new LinkedHashMap<>();
      own.forEach(key -> state.put(key.substring(branch.stateKey("").length()), base.properties().get(key)));
      Set<String> removed = new LinkedHashSet<>(own);
      for (String key : base.properties().keySet()) {
        boolean mains = key.startsWith(IncrementalState.PREFIX) || key.startsWith(OutputPublisher.CHECKS_PREFIX);
        if (mains && !state.containsKey(key)) {
          removed.add(key);
        }
      }
      builder.removeProperties(removed);
      builder.setProperties(state);
    }
    return builder.build();
  }

  private static Set<String> ownKeys(TableMetadata base, BuildBranch branch) {
    Set<String> keys = new LinkedHashSet<>();
    base.properties().keySet().stream().filter(branch::ownsKey).forEach(keys::add);
    return keys;
  }

  private static TableOperations operations(Table table) {
    return ((HasTableOperations) table).operations();
  }
}
