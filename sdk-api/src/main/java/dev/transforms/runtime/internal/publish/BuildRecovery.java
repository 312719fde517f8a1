package dev.transforms.runtime.internal.publish;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.ManageSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * Puts a transform's outputs back in order after builds that died: run by every build on the outputs
 * of each transform before it decides how to build it.
 *
 * <p>For every build whose marks ({@link StagingMarks}) are on an output and whose lease says it is
 * dead:
 * <ul>
 *   <li>if it published some outputs of the transform and died before publishing this one, and its
 *       staging branch here can still be fast-forwarded, the publication is <b>finished</b>: this
 *       output gets the branch and the same state as the others, in one commit (its method had returned
 *       before any output was published, so the branch holds its complete result);
 *   <li>if it created this table and nobody ever published it, the table is <b>dropped</b>, so this
 *       build creates it afresh;
 *   <li>otherwise its branch and lease are <b>removed</b>, and the snapshots only that branch reached
 *       are expired with their files.
 * </ul>
 * Marks of builds that may still be running are left alone. When a publication cannot be finished
 * (the output moved since), the outputs disagree on their state and the decider makes this build a
 * full one: the outputs are made consistent by redoing the build.
 */
public final class BuildRecovery {

  private BuildRecovery() {}

  /**
   * Recovers the outputs of one transform.
   *
   * @param transform the transform's name
   * @param ownBuild the id of the build running recovery, whose own marks are never touched
   * @param existing the transform's output tables that exist (entries without a table are ignored)
   * @return what was done, one line per action, and which outputs were dropped
   */
  public static Result recover(String transform, String ownBuild, List<OutputPublisher.Output> existing) {
    Map<DatasetPath, Table> outputs = new LinkedHashMap<>();
    Map<DatasetPath, OutputPublisher.Output> byPath = new LinkedHashMap<>();
    for (OutputPublisher.Output output : existing) {
      if (output.existing() != null) {
        outputs.put(output.path(), output.existing());
        byPath.put(output.path(), output);
      }
    }
    List<String> notes = new ArrayList<>();
    Set<DatasetPath> dropped = new LinkedHashSet<>();
    Map<DatasetPath, Map<String, Set<String>>> deadByOutput = new LinkedHashMap<>();
    Map<String, Map<String, String>> publishedStates = new LinkedHashMap<>();
    for (Map.Entry<DatasetPath, Table> output : outputs.entrySet()) {
      Table table = output.getValue();
      table.refresh();
      Map<String, Set<String>> dead = new LinkedHashMap<>();
      for (String build : StagingMarks.buildsMarking(table)) {
        if (build.equals(ownBuild)) {
          continue;
        }
        Optional<BuildLease> lease = StagingMarks.lease(table, build);
        if (lease.isEmpty() || !lease.get().alive()) {
          dead.put(build, StagingMarks.branchesOf(table, build));
        }
      }
      deadByOutput.put(output.getKey(), dead);
      Optional<IncrementalState> state = IncrementalState.fromProperties(table.properties());
      if (state.isPresent() && state.get().transform().equals(transform)) {
        publishedStates.putIfAbsent(state.get().buildId(), table.properties());
      }
    }
    for (Map.Entry<DatasetPath, Map<String, Set<String>>> output : deadByOutput.entrySet()) {
      Table table = outputs.get(output.getKey());
      for (Map.Entry<String, Set<String>> dead : output.getValue().entrySet()) {
        String build = dead.getKey();
        Set<String> branches = dead.getValue();
        String mine = IncrementalState.fromProperties(table.properties()).map(IncrementalState::buildId).orElse("");
        Map<String, String> published = publishedStates.get(build);
        if (published != null && !build.equals(mine) && branches.size() == 1
            && finish(table, build, branches.iterator().next(), published)) {
          notes.add("finished the publication of dead build " + build + " on output " + output.getKey()
              + " (it died after publishing the transform's other outputs)");
          continue;
        }
        table.refresh();
        if (build.equals(table.properties().get(StagingMarks.CREATED_BY)) && table.currentSnapshot() == null
            && IncrementalState.fromProperties(table.properties()).isEmpty()) {
          OutputPublisher.Output dropping = byPath.get(output.getKey());
          dropping.catalog().dropTable(dropping.resolved().identifier(), true);
          CrashPoints.reached("recover.drop");
          dropped.add(output.getKey());
          notes.add("dropped output " + output.getKey() + ", which dead build " + build
              + " created and never published");
          break;
        }
        int expired = OutputPublisher.removeMarks(table, build, "recover");
        notes.add("removed what dead build " + build + " left on output " + output.getKey()
            + (branches.isEmpty() ? "" : ": branch " + String.join(", ", branches) + " and " + expired + " snapshot"
                + (expired == 1 ? "" : "s") + " only it reached"));
      }
    }
    return new Result(notes, dropped);
  }

  /** Fast-forwards an output to a dead build's branch and stores that build's state, in one commit. */
  private static boolean finish(Table table, String build, String branch, Map<String, String> publishedProperties) {
    table.refresh();
    SnapshotRef ref = table.refs().get(branch);
    IncrementalState state = IncrementalState.fromProperties(publishedProperties).orElseThrow();
    Snapshot head = table.snapshot(ref.snapshotId());
    try {
      TableCommits.commit(table, transaction -> {
        ManageSnapshots refs = transaction.manageSnapshots();
        refs.fastForwardBranch(SnapshotRef.MAIN_BRANCH, branch).removeBranch(branch).commit();
        UpdateProperties properties = transaction.updateProperties();
        OutputPublisher.storeState(table, properties, state, head);
        properties.remove(StagingMarks.leaseKey(build));
        if (build.equals(table.properties().get(StagingMarks.CREATED_BY))) {
          properties.remove(StagingMarks.CREATED_BY);
        }
        properties.commit();
      });
      CrashPoints.reached("recover.finish");
      return true;
    } catch (ValidationException | IllegalArgumentException | CommitFailedException e) {
      table.refresh();
      return false;
    }
  }

  /**
   * What recovery did.
   *
   * @param notes one line per action, for the build report
   * @param dropped the outputs whose unpublished table was dropped: they are new outputs again
   */
  public record Result(List<String> notes, Set<DatasetPath> dropped) {}
}
