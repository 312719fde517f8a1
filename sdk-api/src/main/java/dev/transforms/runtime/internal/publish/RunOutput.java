package dev.transforms.runtime.internal.publish;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;

/**
 * One output of a run, as the publish protocol tracks it: what it was when staged, and the table the
 * run's engine writes.
 */
final class RunOutput {
  final OutputPublisher.Output output;
  /** The existing output, as the catalog loads it; null for a new output. */
  Table table;
  /** The operations the run writes an existing output through. */
  StagedShapeOperations operations;
  /** The new output this run creates, in this process until published. */
  StagedCreateOperations created;
  /** The folders above the new output's local location that did not exist before this run, deepest first. */
  List<Path> createdFolders = List.of();
  /** The table the run's engine writes: staged shape of an existing output, or the new one. */
  Table stagedTable;
  /** {@code main}'s snapshot when staged; null for an empty or a new table. */
  Long base;
  /** The schema and spec readers of {@code main} had when staged. */
  Schema baseSchema;
  PartitionSpec baseSpec;
  /** The table-level metadata before the run, to tell a change made around this build. */
  TableShape shape;
  boolean published;
  /** An existing output a full build did not write: nothing is published to it. */
  boolean unwritten;
  /** The run edited the output without a snapshot (row edits that changed nothing): it counts as written. */
  volatile boolean edited;
  /** The snapshots an existing output had when staged: a run that expires some of them maintained it. */
  final Set<Long> snapshotsAtStage = new HashSet<>();
  /** The schema readers see once published, and the bytes of data files the publication added. */
  OutputPublisher.Published summary;

  RunOutput(OutputPublisher.Output output) {
    this.output = output;
  }

  /** The output as messages name it: its path and its table. */
  String describe() {
    return output.path() + " (" + output.resolved() + ")";
  }
}
