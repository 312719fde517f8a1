package dev.transforms.runtime.internal.publish;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.spi.CommitRetry;
import dev.transforms.runtime.spi.CrashPoints;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
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
 *   <li>otherwise its branch, lease and shape mark are <b>removed</b>, the snapshots only that branch
 *       reached are expired with their files, and the schemas only it used are dropped from the metadata.
 * </ul>
 * Marks of builds that may still be running are left alone. What a dead build left of a table it was
 * creating is not in the catalog; the next build that creates the table removes it
 * ({@link StagedCreateFiles}). When a publication cannot be finished
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
   * @return what was done, one line per action
   */
  public static Result recover(String transform, String ownBuild, List<OutputPublisher.Output> existing) {
    Map<DatasetPath, Table> outputs = new LinkedHashMap<>();
    for (OutputPublisher.Output output : existing) {
      if (output.existing() != null) {
        outputs.put(output.path(), output.existing());
      }
    }
    List<String> notes = new ArrayList<>();
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
        int expired = StagingMarks.remove(table, build, "recover");
        notes.add("removed what dead build " + build + " left on output " + output.getKey()
            + (branches.isEmpty() ? "" : ": branch " + String.join(", ", branches) + " and " + expired + " snapshot"
                + (expired == 1 ? "" : "s") + " only it reached"));
      }
    }
    return new Result(notes);
  }

  /**
   * Publishes a dead build's staging branch on an output, with the shape it staged and the state it
   * stored on the transform's other outputs, in one commit.
   */
  private static boolean finish(Table table, String build, String branch, Map<String, String> publishedProperties) {
    IncrementalState state = IncrementalState.fromProperties(publishedProperties).orElseThrow();
    TableOperations operations = ((HasTableOperations) table).operations();
    try {
      // Retried at once, as many times as a dead build's publication is worth.
      new CommitRetry(11, CommitFailedException.class::isInstance, CommitRetry.Backoff.NONE, () -> { },
          (interrupted, last) -> last).run(() -> {
        TableMetadata base = operations.refresh();
        TableMetadata updated = PublishedMetadata.published(base, build, branch, state, Map.of());
        operations.commit(base, updated);
        PublishedMetadata.deleteDroppedManifestLists(operations, base, updated);
      });
      table.refresh();
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
   */
  public record Result(List<String> notes) {}
}
