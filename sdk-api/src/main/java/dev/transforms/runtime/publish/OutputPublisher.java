package dev.transforms.runtime.publish;

import dev.transforms.api.PublishConflictException;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.catalog.ResolvedTable;
import dev.transforms.runtime.incremental.IncrementalState;
import dev.transforms.runtime.path.DatasetPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * Makes a transform's writes all-or-nothing (write-audit-publish on Iceberg branches).
 *
 * <p>Before the method runs, {@link #stage} cuts a staging branch from {@code main} on every output
 * table that exists; engines write there. When the method returns, {@link #publish} fast-forwards
 * each output's {@code main} to its staging branch and removes the branch in one metadata commit, so
 * readers see all of the transform's changes at once, carrying the build's incremental state. If the
 * method throws, {@link #discard} removes the branches and drops the tables the build created: every
 * output is as it was. If another writer moved {@code main} meanwhile, the fast-forward is refused and
 * {@link PublishConflictException} is raised: nothing is published and no commit is lost.
 *
 * <p>Outputs are published one table after the other: Iceberg has no commit across tables. Every
 * output is checked for conflicts before the first is published, which leaves only a narrow window.
 */
public final class OutputPublisher {

  private final String branch;
  private final String transform;
  private final List<Staged> staged = new ArrayList<>();

  private OutputPublisher(String branch, String transform) {
    this.branch = branch;
    this.transform = transform;
  }

  /**
   * Cuts the staging branch on each output that exists.
   *
   * @param transform the transform's name, for messages
   * @param branch the staging branch name
   * @param outputs every output table of the transform, with its catalog and, if it exists, the table
   * @return the publisher that publishes or discards them
   */
  public static OutputPublisher stage(String transform, String branch, List<Output> outputs) {
    OutputPublisher publisher = new OutputPublisher(branch, transform);
    for (Output output : outputs) {
      Long base = null;
      if (output.existing() != null) {
        Table table = output.existing();
        Snapshot current = table.currentSnapshot();
        base = current == null ? null : current.snapshotId();
        table.manageSnapshots().createBranch(branch).commit();
      }
      publisher.staged.add(new Staged(output, base));
    }
    return publisher;
  }

  /**
   * Publishes every output: stamps the build's state when the head lacks it, then fast-forwards
   * {@code main} to the staging branch and removes the branch.
   *
   * @param commitProperties the summary properties the published head must carry (incremental state)
   * @return what was written to each output
   * @throws PublishConflictException if another writer moved an output's {@code main} meanwhile;
   *     every staging branch is then removed and nothing is published
   */
  public List<OutputWrites> publish(Map<String, String> commitProperties) {
    String buildId = commitProperties.get(IncrementalState.BUILD_ID);
    for (Staged output : staged) {
      if (output.existedBefore()) {
        Table table = output.output().existing();
        table.refresh();
        Snapshot main = table.currentSnapshot();
        Long mainNow = main == null ? null : main.snapshotId();
        if (!Objects.equals(mainNow, output.baseSnapshot())) {
          discard();
          throw new PublishConflictException("Cannot publish transform " + transform + ": output "
              + output.output().path() + " (" + output.output().resolved() + ") moved from snapshot "
              + output.baseSnapshot() + " to " + mainNow + " while the transform ran; nothing was published. "
              + "Build again to run on the new data.");
        }
      }
    }
    List<OutputWrites> writes = new ArrayList<>();
    for (Staged output : staged) {
      writes.add(output.existedBefore() ? publishExisting(output, commitProperties, buildId)
          : publishCreated(output, commitProperties, buildId));
    }
    return writes;
  }

  private OutputWrites publishExisting(Staged output, Map<String, String> props, String buildId) {
    Table table = output.output().existing();
    SnapshotRef ref = table.refs().get(branch);
    if (ref == null) {
      throw new TransformsException("Staging branch " + branch + " of output " + output.output().path()
          + " disappeared while transform " + transform + " ran; nothing was published");
    }
    Snapshot head = table.snapshot(ref.snapshotId());
    // One catalog commit: the state stamp (when the head lacks it), the fast-forward and the branch removal.
    Transaction transaction = table.newTransaction();
    if (!buildId.equals(head.summary().get(IncrementalState.BUILD_ID))) {
      AppendFiles stamp = transaction.newAppend().toBranch(branch);
      props.forEach(stamp::set);
      stamp.commit();
    }
    try {
      if (output.baseSnapshot() == null) {
        long newHead = transaction.table().refs().get(branch).snapshotId();
        transaction.manageSnapshots().setCurrentSnapshot(newHead).removeBranch(branch).commit();
      } else {
        transaction.manageSnapshots().fastForwardBranch(SnapshotRef.MAIN_BRANCH, branch).removeBranch(branch).commit();
      }
      transaction.commitTransaction();
    } catch (ValidationException | CommitFailedException e) {
      discard();
      throw new PublishConflictException("Cannot publish transform " + transform + ": output "
          + output.output().path() + " moved while the transform ran (" + e.getMessage()
          + "); nothing of it was published. Build again to run on the new data.", e);
    }
    // The committed transaction left the table object at the published metadata: no refresh needed.
    return summarize(output, table, output.baseSnapshot(), false);
  }

  private OutputWrites publishCreated(Staged output, Map<String, String> props, String buildId) {
    Catalog catalog = output.output().catalog();
    ResolvedTable resolved = output.output().resolved();
    if (!catalog.tableExists(resolved.identifier())) {
      return new OutputWrites(output.output().path(), resolved.toString(), 0, 0, 0, 0, OptionalLong.empty(), false);
    }
    Table table = catalog.loadTable(resolved.identifier());
    Snapshot head = table.currentSnapshot();
    if (head == null || !buildId.equals(head.summary().get(IncrementalState.BUILD_ID))) {
      stamp(table.newAppend(), props);
      table.refresh();
    }
    return summarize(output, table, null, true);
  }

  private static void stamp(AppendFiles append, Map<String, String> props) {
    props.forEach(append::set);
    append.commit();
  }

  private static OutputWrites summarize(Staged output, Table table, Long base, boolean created) {
    long added = 0;
    long deleted = 0;
    long files = 0;
    int count = 0;
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null && (base == null || snapshot.snapshotId() != base)) {
      Map<String, String> summary = snapshot.summary();
      added += number(summary, "added-records");
      deleted += number(summary, "deleted-records");
      files += number(summary, "added-data-files");
      count++;
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
    Snapshot current = table.currentSnapshot();
    return new OutputWrites(output.output().path(), output.output().resolved().toString(), added, deleted, files, count,
        current == null ? OptionalLong.empty() : OptionalLong.of(current.snapshotId()), created);
  }

  private static long number(Map<String, String> summary, String key) {
    String value = summary == null ? null : summary.get(key);
    return value == null ? 0 : Long.parseLong(value);
  }

  /**
   * Throws away everything the transform wrote: removes the staging branches and drops the tables
   * this build created. Safe to call more than once.
   */
  public void discard() {
    for (Staged output : staged) {
      try {
        if (output.existedBefore()) {
          Table table = output.output().existing();
          table.refresh();
          if (table.refs().containsKey(branch)) {
            table.manageSnapshots().removeBranch(branch).commit();
          }
        } else {
          Catalog catalog = output.output().catalog();
          if (catalog.tableExists(output.output().resolved().identifier())) {
            catalog.dropTable(output.output().resolved().identifier(), true);
          }
        }
      } catch (RuntimeException e) {
        // Keep discarding the other outputs; a leftover branch is invisible to readers of main.
      }
    }
  }

  /**
   * One output table to stage.
   *
   * @param path the output's dataset path
   * @param resolved the catalog table
   * @param catalog the catalog holding it
   * @param existing the table as loaded before the run, or {@code null} if it does not exist yet
   */
  public record Output(DatasetPath path, ResolvedTable resolved, Catalog catalog, Table existing) {}

  private record Staged(Output output, Long baseSnapshot) {
    boolean existedBefore() {
      return output.existing() != null;
    }
  }
}
