package dev.transforms.runtime.internal.incremental;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.internal.schema.SchemaDiff;
import dev.transforms.runtime.spi.ChangeRange;
import dev.transforms.runtime.spi.IncrementalDecision;
import dev.transforms.runtime.spi.IncrementalSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Decides whether a build of a transform can be incremental. Engine-neutral: both engines use it.
 *
 * <p>A build is incremental only when every output carries the state of this transform's last
 * successful build, all outputs agree on it, the semantic version is unchanged, and every input that
 * is not a snapshot input changed only by appends since the stored snapshot, which must still exist.
 * Every other case is a full build whose reason names the output, input or snapshot at fault.
 */
public final class IncrementalDecider {

  private IncrementalDecider() {}

  /**
   * The state the outputs carry: the state of the first output, when every output carries the same
   * state for this transform.
   *
   * @param transform the transform's name
   * @param outputs the output tables that exist, by path (a missing output is a first build)
   * @param outputCount the number of outputs the transform declares
   * @return the stored state, or the reason there is none usable
   */
  public static StoredState storedState(String transform, Map<DatasetPath, Table> outputs, int outputCount) {
    if (outputs.isEmpty()) {
      return StoredState.none("first build: no output exists yet");
    }
    if (outputs.size() < outputCount) {
      return StoredState.none("first build of some outputs: not every output exists yet");
    }
    IncrementalState first = null;
    for (Map.Entry<DatasetPath, Table> output : outputs.entrySet()) {
      Map<String, String> properties = output.getValue().properties();
      Optional<IncrementalState> state = IncrementalState.fromProperties(properties);
      if (state.isEmpty()) {
        return StoredState.none("output " + output.getKey() + " carries no state of a previous build");
      }
      if (!state.get().transform().equals(transform)) {
        return StoredState.none("output " + output.getKey() + " was last written by transform "
            + state.get().transform());
      }
      Optional<String> moved = rolledBack(output.getKey(), output.getValue(), state.get());
      if (moved.isPresent()) {
        return StoredState.none(moved.get());
      }
      if (first == null) {
        first = state.get();
      } else if (!first.buildId().equals(state.get().buildId())
          || !first.inputSnapshots().equals(state.get().inputSnapshots())
          || first.semanticVersion() != state.get().semanticVersion()) {
        return StoredState.none("outputs disagree on the last build's state: output " + output.getKey()
            + " was published by build " + state.get().buildId() + ", the others by build " + first.buildId());
      }
    }
    return new StoredState(Optional.of(first), "");
  }

  /**
   * Checks that an output still holds what the build that stored its state published: its
   * {@code main} then must be its {@code main} now, or an ancestor of it (writers may add to an
   * output, and maintenance may compact it). A rollback, a replace or an emptied table makes the state
   * describe rows the output no longer has.
   *
   * @param path the output's path, for the reason
   * @param table the output table
   * @param state the state it carries
   * @return the reason the state no longer holds, or empty
   */
  static Optional<String> rolledBack(DatasetPath path, Table table, IncrementalState state) {
    OptionalLong published = IncrementalState.parseSnapshot(table.properties().get(IncrementalState.SNAPSHOT_ID));
    if (published.isEmpty()) {
      return Optional.empty();
    }
    Snapshot current = table.currentSnapshot();
    String since = " since build " + state.buildId() + " published snapshot " + published.getAsLong();
    if (current == null) {
      return Optional.of("output " + path + " has no snapshot any more (emptied or replaced" + since + ")");
    }
    if (table.snapshot(published.getAsLong()) != null) {
      for (Snapshot s = current; s != null; s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
        if (s.snapshotId() == published.getAsLong()) {
          return Optional.empty();
        }
      }
      return Optional.of("output " + path + " was rolled back or replaced" + since);
    }
    // The published snapshot expired: sequence numbers still tell a rollback (they only grow).
    OptionalLong sequence = IncrementalState.parseSnapshot(table.properties().get(IncrementalState.SEQUENCE_NUMBER));
    if (sequence.isPresent() && current.sequenceNumber() < sequence.getAsLong()) {
      return Optional.of("output " + path + " was rolled back" + since);
    }
    return Optional.empty();
  }

  /**
   * Decides one build.
   *
   * @param spec the transform; a transform without {@code @Incremental} is always full
   * @param stored the state its outputs carry (see {@link #storedState})
   * @param inputs the input tables by path, each at the snapshot this build reads ({@code current});
   *     file inputs are absent
   * @param current the snapshot id this build reads of each input table (empty for an empty table)
   * @return the decision
   */
  public static IncrementalDecision decide(
      TransformSpec spec, StoredState stored, Map<DatasetPath, Table> inputs, Map<DatasetPath, OptionalLong> current) {
    if (spec.incremental().isEmpty()) {
      return IncrementalDecision.full("not an incremental transform");
    }
    IncrementalSpec options = spec.incremental().get();
    if (stored.state().isEmpty()) {
      return IncrementalDecision.full(stored.reason());
    }
    IncrementalState state = stored.state().get();
    if (state.semanticVersion() != options.semanticVersion()) {
      return IncrementalDecision.full("semantic version changed from " + state.semanticVersion() + " to "
          + options.semanticVersion());
    }
    List<String> schemaNotes = new ArrayList<>();
    for (DatasetPath path : spec.inputPaths()) {
      if (options.snapshotInputs().contains(path)) {
        continue;
      }
      Table table = inputs.get(path);
      if (table == null) {
        return IncrementalDecision.full("input " + path + " is not an Iceberg table, so its changes cannot be told");
      }
      if (!state.inputSnapshots().containsKey(path)) {
        return IncrementalDecision.full("input " + path + " is new since the last build");
      }
      OptionalLong from = state.inputSnapshots().get(path);
      OptionalLong to = current.getOrDefault(path, OptionalLong.empty());
      Optional<String> problem = options.readsChanges() ? inHistory(path, table, from, to)
          : appendsOnly(path, table, from, to);
      SchemaDiff schema = schemaChange(table, from, to);
      if (problem.isPresent()) {
        return IncrementalDecision.full(problem.get()
            + (schema.isEmpty() ? "" : "; its schema changed too: " + String.join(", ", schema.describe())));
      }
      if (!schema.isEmpty() && !schema.onlyAddsOptionalColumns()) {
        return IncrementalDecision.full("input " + path + " schema changed: " + String.join(", ", schema.describe())
            + "; rows read before may not match the new columns");
      }
      if (!schema.isEmpty()) {
        schemaNotes.add("input " + path + " schema changed: " + String.join(", ", schema.describe())
            + " (earlier rows read as null)");
      }
    }
    String reason = options.readsChanges() ? "reading the inputs' changes since the last build"
        : IncrementalDecision.incrementalBuild().reason();
    return new IncrementalDecision(true, schemaNotes.isEmpty() ? reason : reason + "; " + String.join("; ", schemaNotes));
  }

  /**
   * How an input's schema changed since the snapshot the last build read: against the schema of the
   * snapshot this build reads, and against the table's schema now. Rows of a snapshot are read in its own
   * schema, but changes are read in the table's current one, which moves without a commit: a column
   * renamed or dropped after the input's last commit changes what an incremental build reads although
   * both snapshots share a schema. The change that an incremental build cannot take wins.
   *
   * @param table the input, as this build loaded it
   * @param from the snapshot the last build read; empty if the table was empty
   * @param to the snapshot this build reads; empty if the table is empty
   * @return the changes; empty when either snapshot is missing or no schema differs from the first's
   */
  static SchemaDiff schemaChange(Table table, OptionalLong from, OptionalLong to) {
    Snapshot before = from.isPresent() ? table.snapshot(from.getAsLong()) : null;
    Snapshot after = to.isPresent() ? table.snapshot(to.getAsLong()) : null;
    if (before == null || after == null || before.schemaId() == null || after.schemaId() == null) {
      return new SchemaDiff(List.of());
    }
    Schema was = table.schemas().get(before.schemaId());
    Schema is = table.schemas().get(after.schemaId());
    if (was == null || is == null) {
      return new SchemaDiff(List.of());
    }
    SchemaDiff atSnapshot = SchemaDiff.between(was, is);
    SchemaDiff now = before.schemaId() == table.schema().schemaId() ? new SchemaDiff(List.of())
        : SchemaDiff.between(was, table.schema());
    if (!atSnapshot.onlyAddsOptionalColumns() || now.onlyAddsOptionalColumns()) {
      return atSnapshot.isEmpty() ? now : atSnapshot;
    }
    return now;
  }

  /**
   * Checks that the snapshot the last build read is still in a table's history, so that the changes
   * since then can be read, whatever they are.
   *
   * @param path the input's path, for the reason
   * @param table the input table
   * @param from the snapshot the last build read (exclusive); empty if the table was empty then
   * @param to the snapshot this build reads (inclusive); empty if the table is empty now
   * @return empty if the changes can be read, or the reason otherwise
   */
  static Optional<String> inHistory(DatasetPath path, Table table, OptionalLong from, OptionalLong to) {
    return walk(path, table, from, to, false);
  }

  /**
   * Checks that a table changed only by appends between two snapshots; compactions ({@code replace}) move
   * rows without changing them, so they may come between ({@link ChangeRange#keepsEarlierRows}).
   *
   * @param path the input's path, for the reason
   * @param table the input table
   * @param from the snapshot the last build read (exclusive); empty if the table was empty then
   * @param to the snapshot this build reads (inclusive); empty if the table is empty now
   * @return empty if only appends happened, or the reason otherwise
   */
  static Optional<String> appendsOnly(DatasetPath path, Table table, OptionalLong from, OptionalLong to) {
    return walk(path, table, from, to, true);
  }

  private static Optional<String> walk(
      DatasetPath path, Table table, OptionalLong from, OptionalLong to, boolean onlyAppends) {
    if (to.isEmpty()) {
      return from.isEmpty() ? Optional.empty()
          : Optional.of("input " + path + " has no snapshot any more (it was replaced or emptied)");
    }
    if (from.isPresent() && table.snapshot(from.getAsLong()) == null) {
      return Optional.of("snapshot " + from.getAsLong() + " of input " + path
          + " that the last build read no longer exists (expired)");
    }
    long stop = from.isPresent() ? from.getAsLong() : -1L;
    Snapshot snapshot = table.snapshot(to.getAsLong());
    Snapshot oldest = snapshot;
    while (snapshot != null && snapshot.snapshotId() != stop) {
      oldest = snapshot;
      String operation = snapshot.operation();
      if (onlyAppends && !ChangeRange.keepsEarlierRows(snapshot)) {
        return Optional.of("input " + path + " changed by '" + operation + "' in snapshot " + snapshot.snapshotId()
            + ", not only by appends (and compactions)");
      }
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
    if (from.isPresent() && snapshot == null) {
      return Optional.of("snapshot " + from.getAsLong() + " of input " + path + " that the last build read: "
          + ChangeRange.whyNotAnAncestor(oldest, to.getAsLong()));
    }
    return Optional.empty();
  }

  /**
   * The state stored by the last build, or why there is none.
   *
   * @param state the state, when all outputs agree on one
   * @param reason why there is none, when empty
   */
  public record StoredState(Optional<IncrementalState> state, String reason) {
    static StoredState none(String reason) {
      return new StoredState(Optional.empty(), reason);
    }

    /**
     * The snapshot the last build consumed of an input.
     *
     * @param path an input path
     * @return the snapshot id, or empty on a first build, an input new since then, or one that was empty
     */
    public OptionalLong previousSnapshot(DatasetPath path) {
      return state.map(s -> s.inputSnapshots().getOrDefault(path, OptionalLong.empty())).orElse(OptionalLong.empty());
    }
  }

}
