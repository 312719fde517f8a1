package dev.transforms.runtime.internal.incremental;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.spi.DatasetKind;
import dev.transforms.runtime.spi.IncrementalSpec;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Whether a transform is up to date: building it again would publish what its outputs already hold.
 * One decision for the build, which skips an up-to-date transform, for {@code transforms plan}, which
 * says what a build would run, and for the lineage graph, which marks the rest stale.
 *
 * <p>A transform is up to date when its outputs carry the state of its last published build and still
 * hold what that build published (maintenance may have compacted them since: a {@code replace} keeps the
 * rows), its semantic version and its code and settings are those that build ran
 * ({@link CodeFingerprint}), every table input is at the snapshot that build read, and every file input
 * has the files it had ({@link FileFingerprint}). A transform with no input, or with a file output, is
 * never up to date: nothing records what it would write.
 *
 * @param upToDate whether the transform is up to date
 * @param reason why, in a few words: what changed, or what is unchanged
 * @param inputsMoved whether it is stale because its inputs moved (and for nothing else that is checked
 *     first: its outputs, semantic version, code and settings)
 */
public record Freshness(boolean upToDate, String reason, boolean inputsMoved) {

  /**
   * The one decision.
   *
   * @param spec the transform
   * @param stored the state its outputs carry ({@link IncrementalDecider#storedState})
   * @param outputs its output tables that exist, by path
   * @param inputs the current snapshot of each table input, by path (empty for an empty table)
   * @param files the fingerprint of each file input, by path
   * @param code the fingerprint of its code and settings now
   * @return whether it is up to date, and why
   */
  public static Freshness of(TransformSpec spec, IncrementalDecider.StoredState stored, Map<DatasetPath, Table> outputs,
      Map<DatasetPath, OptionalLong> inputs, Map<DatasetPath, String> files, String code) {
    if (spec.inputs().isEmpty()) {
      return stale("it has no input, so nothing tells what it would write: it runs in every build");
    }
    if (spec.outputs().stream().anyMatch(o -> o.kind().orElse(DatasetKind.TABLE) == DatasetKind.FILES)) {
      return stale("it writes files, whose last build is not recorded: it runs in every build");
    }
    if (stored.state().isEmpty()) {
      return stale(stored.reason());
    }
    IncrementalState state = stored.state().get();
    for (Map.Entry<DatasetPath, Table> output : outputs.entrySet()) {
      Optional<String> changed = changedSince(output.getKey(), output.getValue(), state);
      if (changed.isPresent()) {
        return stale(changed.get());
      }
    }
    int version = spec.incremental().map(IncrementalSpec::semanticVersion).orElse(1);
    if (state.semanticVersion() != version) {
      return stale("semantic version changed from " + state.semanticVersion() + " to " + version);
    }
    if (state.code().isEmpty()) {
      return stale("its last build (" + state.buildId() + ") recorded no fingerprint of its code");
    }
    if (!state.code().equals(code)) {
      return stale("its code or settings changed since build " + state.buildId());
    }
    List<String> moved = new ArrayList<>();
    for (ParameterSpec input : spec.inputs()) {
      DatasetPath path = input.requirePath();
      if (files.containsKey(path)) {
        if (!files.get(path).equals(state.files().get(path))) {
          moved.add("the files of input " + path + " changed");
        }
        continue;
      }
      OptionalLong now = inputs.getOrDefault(path, OptionalLong.empty());
      OptionalLong read = state.inputSnapshots().get(path);
      if (read == null) {
        moved.add("input " + path + " is new since build " + state.buildId());
      } else if (!read.equals(now)) {
        moved.add("input " + path + " moved from snapshot " + describe(read) + " to " + describe(now));
      }
    }
    if (!moved.isEmpty()) {
      return new Freshness(false, String.join("; ", moved), true);
    }
    return new Freshness(true, "up to date: inputs and code unchanged since build " + state.buildId(), false);
  }

  /**
   * The decision for a transform as the catalogs hold its datasets now, for the commands that read and
   * never build ({@code plan}, {@code graph}): the same as a build's, from the same facts.
   *
   * @param spec the transform
   * @param config the configuration (where file datasets live, the engine settings)
   * @param tables the table a path resolves to, if it exists
   * @return whether it is up to date, and why
   */
  public static Freshness evaluate(TransformSpec spec, dev.transforms.runtime.TransformsConfig config,
      java.util.function.Function<DatasetPath, Optional<Table>> tables) {
    return evaluate(spec, config, tables, tables);
  }

  /**
   * As {@link #evaluate(TransformSpec, dev.transforms.runtime.TransformsConfig, java.util.function.Function)},
   * with outputs and inputs seen apart, as a branch build sees them (an output at the branch's head with
   * its state, an input at the branch or fallback it is read at).
   *
   * @param spec the transform
   * @param config the configuration
   * @param outputsSeen an output's table as the build decides from it, if it exists
   * @param inputsSeen an input's table as the build reads it, if it exists
   * @return whether it is up to date, and why
   */
  public static Freshness evaluate(TransformSpec spec, dev.transforms.runtime.TransformsConfig config,
      java.util.function.Function<DatasetPath, Optional<Table>> outputsSeen,
      java.util.function.Function<DatasetPath, Optional<Table>> inputsSeen) {
    Map<DatasetPath, Table> outputs = new java.util.LinkedHashMap<>();
    int outputTables = 0;
    for (ParameterSpec output : spec.outputs()) {
      if (output.kind().orElse(DatasetKind.TABLE) == DatasetKind.TABLE) {
        outputTables++;
        outputsSeen.apply(output.requirePath()).ifPresent(t -> outputs.put(output.requirePath(), t));
      }
    }
    Map<DatasetPath, OptionalLong> inputs = new java.util.LinkedHashMap<>();
    Map<DatasetPath, String> files = new java.util.LinkedHashMap<>();
    for (ParameterSpec input : spec.inputs()) {
      DatasetPath path = input.requirePath();
      Optional<Table> table = inputsSeen.apply(path);
      if (table.isPresent()) {
        Snapshot current = table.get().currentSnapshot();
        inputs.put(path, current == null ? OptionalLong.empty() : OptionalLong.of(current.snapshotId()));
      } else if (input.kind().orElse(DatasetKind.TABLE) == DatasetKind.FILES) {
        files.put(path, FileFingerprint.of(config.filesRoot().resolve(String.join("/", path.segments()))));
      }
    }
    return of(spec, IncrementalDecider.storedState(spec.name(), outputs, outputTables), outputs, inputs, files,
        CodeFingerprint.of(spec, config));
  }

  private static Freshness stale(String reason) {
    return new Freshness(false, reason, false);
  }

  private static String describe(OptionalLong snapshot) {
    return snapshot.isPresent() ? Long.toString(snapshot.getAsLong()) : "none (empty)";
  }

  /**
   * Whether an output moved since the build that stored its state published it: its {@code main} then
   * is its {@code main} now, or only compactions ({@code replace}) came after it.
   */
  private static Optional<String> changedSince(DatasetPath path, Table table, IncrementalState state) {
    OptionalLong published = IncrementalState.parseSnapshot(table.properties().get(IncrementalState.SNAPSHOT_ID));
    Snapshot current = table.currentSnapshot();
    if (published.isEmpty()) {
      return current == null ? Optional.empty()
          : Optional.of("output " + path + " was written since build " + state.buildId() + " published it empty");
    }
    for (Snapshot s = current; s != null; s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
      if (s.snapshotId() == published.getAsLong()) {
        return Optional.empty();
      }
      if (!DataOperations.REPLACE.equals(s.operation())) {
        break;
      }
    }
    return Optional.of("output " + path + " changed since build " + state.buildId() + " published snapshot "
        + published.getAsLong());
  }
}
