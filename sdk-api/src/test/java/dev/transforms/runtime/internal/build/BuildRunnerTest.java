package dev.transforms.runtime.internal.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.api.EngineNotFoundException;
import dev.transforms.api.Incremental;
import dev.transforms.api.IncrementalRequiredException;
import dev.transforms.api.IncrementalTransformContext;
import dev.transforms.api.PublishConflictException;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.api.TransformFailedException;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.testengine.IdTables;
import dev.transforms.testengine.OtherEngineOutput;
import dev.transforms.testengine.TestInput;
import dev.transforms.testengine.TestOutput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class BuildRunnerTest {

  static final TableIdentifier SOURCE = TableIdentifier.of(Namespace.of("src"), "numbers");
  static final TableIdentifier COPIED = TableIdentifier.of(Namespace.of("out"), "copied");

  @TempDir Path warehouse;
  BuildRunner runner;
  Catalog catalog;

  @BeforeEach
  void setUp() {
    runner = new BuildRunner(TransformsConfig.embedded(warehouse));
    catalog = runner.catalogs().catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    Table source = catalog.createTable(SOURCE, IdTables.SCHEMA);
    IdTables.append(source, null, Map.of(), 1, 2, 3);
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  /** Copies the rows added since the last build. */
  public static class IncrementalCopy {
    static int calls;

    @Transform(name = "copy")
    @Incremental(semanticVersion = 1)
    public void copy(IncrementalTransformContext ctx, @TableInput("/src/numbers") TestInput in,
        @TableOutput("/out/copied") TestOutput out) {
      calls++;
      long[] added = in.addedIds().stream().mapToLong(Long::longValue).toArray();
      if (added.length > 0) {
        out.append(added);
      } else {
        out.appendNothing();
      }
    }
  }

  /** The same transform after a change of logic. */
  public static class IncrementalCopyV2 {
    @Transform(name = "copy")
    @Incremental(semanticVersion = 2)
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/copied") TestOutput out) {
      out.append(in.addedIds().stream().mapToLong(Long::longValue).toArray());
    }
  }

  /** Requires every build after the first to be incremental. */
  public static class StrictCopy {
    @Transform(name = "copy")
    @Incremental(requireIncremental = true)
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/copied") TestOutput out) {
      out.append(in.addedIds().stream().mapToLong(Long::longValue).toArray());
    }
  }

  /** Writes, then fails. */
  public static class WritesThenFails {
    @Transform(name = "copy")
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/copied") TestOutput out) {
      out.append(100, 200);
      throw new IllegalStateException("boom after writing");
    }
  }

  /** Records what the snapshot handles say. */
  public static class SnapshotIds {
    static final List<String> seen = new ArrayList<>();

    @Transform(name = "copy")
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/copied") TestOutput out) {
      seen.add(in.currentSnapshotId() + " after " + in.previousSnapshotId());
      out.append(in.ids().stream().mapToLong(Long::longValue).toArray());
    }
  }

  /** A chain: the second reads what the first writes. */
  public static class Chain {
    @Transform
    public void second(@TableInput("/mid/first") TestInput in, @TableOutput("/out/second") TestOutput out) {
      out.append(in.ids().stream().mapToLong(v -> v * 10).toArray());
    }

    @Transform
    public void first(@TableInput("/src/numbers") TestInput in, @TableOutput("/mid/first") TestOutput out) {
      out.append(in.ids().stream().mapToLong(v -> v + 1).toArray());
    }
  }

  /** Reads a table that does not exist, and has a downstream transform. */
  public static class MissingInput {
    @Transform
    public void reads(@TableInput("/src/missing-table") TestInput in, @TableOutput("/out/a") TestOutput out) {}

    @Transform
    public void after(@TableInput("/out/a") TestInput in, @TableOutput("/out/b") TestOutput out) {}
  }

  /** Needs an engine that is not installed. */
  public static class NeedsAbsentEngine {
    @Transform
    public void write(@TableOutput("/out/absent") OtherEngineOutput out) {}
  }

  /** Lets another writer commit to the output while the transform runs. */
  public static class RacingWriter {
    static Catalog catalog;

    @Transform(name = "copy")
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/copied") TestOutput out) {
      out.append(7);
      IdTables.append(catalog.loadTable(COPIED), null, Map.of(), 999);
    }
  }

  private BuildReport build(Class<?>... classes) {
    List<dev.transforms.runtime.spi.TransformSpec> specs = new ArrayList<>();
    for (Class<?> type : classes) {
      specs.addAll(ReflectiveModels.transformsOf(type));
    }
    return runner.run(BuildPlan.of(specs), BuildListener.NONE);
  }

  private Table table(TableIdentifier id) {
    return catalog.loadTable(id);
  }

  private void appendToSource(long... ids) {
    IdTables.append(table(SOURCE), null, Map.of(), ids);
  }

  @Test
  void incrementalBuildsReadOnlyAppendedRowsUntilSomethingForcesAFullBuild() {
    BuildReport first = build(IncrementalCopy.class);
    TransformResult result = first.result("copy").orElseThrow();
    assertThat(result.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(result.incremental()).isFalse();
    assertThat(result.reason()).isEqualTo("first build: no output exists yet");
    assertThat(IdTables.ids(table(COPIED), null)).containsExactly(1L, 2L, 3L);
    long sourceSnapshot = table(SOURCE).currentSnapshot().snapshotId();
    assertThat(table(COPIED).properties())
        .containsEntry("transforms.state.input./src/numbers", Long.toString(sourceSnapshot))
        .containsEntry(IncrementalState.SEMANTIC_VERSION, "1")
        .containsEntry(IncrementalState.TRANSFORM, "copy")
        .containsEntry(IncrementalState.BUILD_ID, first.buildId())
        .containsEntry(IncrementalState.SNAPSHOT_ID, Long.toString(table(COPIED).currentSnapshot().snapshotId()));
    assertThat(table(COPIED).currentSnapshot().summary()).containsEntry(IncrementalState.SUMMARY_BUILD_ID, first.buildId())
        .doesNotContainKey("transforms.state.input./src/numbers");

    appendToSource(4, 5);
    TransformResult second = build(IncrementalCopy.class).result("copy").orElseThrow();
    assertThat(second.incremental()).isTrue();
    assertThat(IdTables.ids(table(COPIED), null)).containsExactly(1L, 2L, 3L, 4L, 5L);
    Snapshot head = table(COPIED).currentSnapshot();
    assertThat(head.summary()).containsEntry("added-records", "2");
    assertThat(table(COPIED).properties())
        .containsEntry("transforms.state.input./src/numbers", Long.toString(table(SOURCE).currentSnapshot().snapshotId()))
        .containsEntry(IncrementalState.SNAPSHOT_ID, Long.toString(head.snapshotId()));
    assertThat(second.outputs().get(0).rowsAdded()).isEqualTo(2);

    table(SOURCE).newDelete().deleteFromRowFilter(Expressions.alwaysTrue()).commit();
    appendToSource(8);
    TransformResult third = build(IncrementalCopy.class).result("copy").orElseThrow();
    assertThat(third.incremental()).isFalse();
    assertThat(third.reason()).startsWith("input /src/numbers changed by 'delete' in snapshot");

    TransformResult fourth = build(IncrementalCopyV2.class).result("copy").orElseThrow();
    assertThat(fourth.incremental()).isFalse();
    assertThat(fourth.reason()).isEqualTo("semantic version changed from 1 to 2");
  }

  @Test
  void aBuildWithNothingNewRunsNothingCommitsNothingAndStartsNoEngine() {
    build(IncrementalCopy.class);
    String metadata = ((org.apache.iceberg.HasTableOperations) table(COPIED)).operations().current()
        .metadataFileLocation();
    int starts = dev.transforms.testengine.TestEngine.starts;

    BuildReport report = build(IncrementalCopy.class);

    TransformResult again = report.result("copy").orElseThrow();
    assertThat(again.status()).isEqualTo(TransformResult.Status.UP_TO_DATE);
    assertThat(again.reason()).startsWith("up to date: inputs and code unchanged since build ");
    assertThat(report.succeeded()).isTrue();
    assertThat(report.format()).contains("UP_TO_DATE copy");
    assertThat(dev.transforms.testengine.TestEngine.starts).as("engines started").isEqualTo(starts);
    assertThat(((org.apache.iceberg.HasTableOperations) table(COPIED)).operations().current()
        .metadataFileLocation()).as("nothing committed").isEqualTo(metadata);

    // A new input row makes it stale again; --force runs it even when nothing changed.
    appendToSource(4);
    TransformResult next = build(IncrementalCopy.class).result("copy").orElseThrow();
    assertThat(next.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(next.incremental()).isTrue();
    TransformResult forced = runner.run(BuildPlan.of(ReflectiveModels.transformsOf(IncrementalCopy.class)),
        BuildListener.NONE, new BuildOptions(java.util.Set.of(), java.util.Set.of("copy"))).result("copy").orElseThrow();
    assertThat(forced.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(forced.incremental()).isTrue();
    assertThat(IdTables.ids(table(COPIED), null)).containsExactly(1L, 2L, 3L, 4L);
  }

  @Test
  void aRunThatWritesNoRowPublishesNoSnapshotAndStillAdvancesTheState() {
    build(IncrementalCopy.class);
    long before = table(COPIED).currentSnapshot().snapshotId();
    long snapshots = snapshotCount(table(COPIED));

    // Forced though nothing is new: the incremental run appends nothing (an empty snapshot on its branch).
    BuildReport report = runner.run(BuildPlan.of(ReflectiveModels.transformsOf(IncrementalCopy.class)),
        BuildListener.NONE, new BuildOptions(java.util.Set.of(), java.util.Set.of("copy")));

    TransformResult again = report.result("copy").orElseThrow();
    assertThat(again.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(again.incremental()).isTrue();
    assertThat(again.outputs().get(0).snapshots()).isZero();
    assertThat(table(COPIED).currentSnapshot().snapshotId()).isEqualTo(before);
    assertThat(snapshotCount(table(COPIED))).as("the empty snapshot went with the branch").isEqualTo(snapshots);
    assertThat(table(COPIED).properties()).containsEntry(IncrementalState.BUILD_ID, report.buildId())
        .containsEntry(IncrementalState.SNAPSHOT_ID, Long.toString(before));
    assertThat(table(COPIED).refs()).containsOnlyKeys("main");
    assertThat(IdTables.ids(table(COPIED), null)).containsExactly(1L, 2L, 3L);
  }

  @Test
  void anExpiredStoredSnapshotFallsBackToAFullBuildWithThatReason() {
    build(IncrementalCopy.class);
    long consumed = table(SOURCE).currentSnapshot().snapshotId();
    appendToSource(4);
    table(SOURCE).expireSnapshots().expireSnapshotId(consumed).commit();
    TransformResult result = build(IncrementalCopy.class).result("copy").orElseThrow();
    assertThat(result.incremental()).isFalse();
    assertThat(result.reason()).isEqualTo("snapshot " + consumed
        + " of input /src/numbers that the last build read no longer exists (expired)");
  }

  @Test
  void requireIncrementalAllowsTheFirstBuildAndFailsLaterFullBuilds() {
    assertThat(build(StrictCopy.class).succeeded()).isTrue();
    long published = table(COPIED).currentSnapshot().snapshotId();
    table(SOURCE).newDelete().deleteFromRowFilter(Expressions.alwaysTrue()).commit();
    TransformResult result = build(StrictCopy.class).result("copy").orElseThrow();
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.error().orElseThrow()).isInstanceOf(IncrementalRequiredException.class)
        .hasMessageStartingWith("Transform copy requires an incremental build, but this build must be full: "
            + "input /src/numbers changed by 'delete'");
    assertThat(table(COPIED).currentSnapshot().snapshotId()).isEqualTo(published);
  }

  @Test
  void aTransformThatThrowsLeavesAnExistingOutputExactlyAsItWas() {
    build(IncrementalCopy.class);
    Table before = table(COPIED);
    long snapshot = before.currentSnapshot().snapshotId();
    Map<String, String> properties = before.properties();
    long snapshots = snapshotCount(before);
    appendToSource(4);

    TransformResult result = build(WritesThenFails.class).result("copy").orElseThrow();

    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.error().orElseThrow()).isInstanceOf(TransformFailedException.class)
        .hasMessage("Transform copy failed: java.lang.IllegalStateException: boom after writing")
        .hasCauseInstanceOf(IllegalStateException.class);
    Table after = table(COPIED);
    assertThat(after.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(after.properties()).isEqualTo(properties);
    assertThat(after.refs()).containsOnlyKeys("main");
    assertThat(snapshotCount(after)).isEqualTo(snapshots);
    assertThat(IdTables.ids(after, null)).containsExactly(1L, 2L, 3L);
  }

  @Test
  void aTransformThatThrowsOnItsFirstBuildLeavesNoTable() {
    TransformResult result = build(WritesThenFails.class).result("copy").orElseThrow();
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(catalog.tableExists(COPIED)).isFalse();
  }

  @Test
  void previousSnapshotIsWhatTheLastSuccessfulBuildConsumed() {
    SnapshotIds.seen.clear();
    long first = table(SOURCE).currentSnapshot().snapshotId();
    build(SnapshotIds.class);
    appendToSource(4);
    long second = table(SOURCE).currentSnapshot().snapshotId();
    build(SnapshotIds.class);
    assertThat(SnapshotIds.seen).containsExactly(
        "OptionalLong[" + first + "] after OptionalLong.empty",
        "OptionalLong[" + second + "] after OptionalLong[" + first + "]");
  }

  @Test
  void transformsRunInDependencyOrderAndSeeUpstreamOutputs() {
    BuildReport report = build(Chain.class);
    assertThat(report.results()).extracting(TransformResult::transform)
        .containsExactly("Chain.first", "Chain.second");
    assertThat(report.succeeded()).isTrue();
    assertThat(IdTables.ids(table(TableIdentifier.of("out", "second")), null)).containsExactly(20L, 30L, 40L);
  }

  @Test
  void aMissingInputNamesThePathAndTableAndSkipsWhatIsDownstream() {
    BuildReport report = build(MissingInput.class);
    TransformResult reads = report.result("MissingInput.reads").orElseThrow();
    assertThat(reads.error().orElseThrow()).isInstanceOf(DatasetNotFoundException.class)
        .hasMessage("Input /src/missing-table of transform MissingInput.reads does not exist: no table "
            + "`local`.`src`.`missing-table` in catalog 'local'. Build the transform that produces it, or load it "
            + "from files (transforms load /src/missing-table FILE...), or check the mounts in transforms.properties");
    TransformResult after = report.result("MissingInput.after").orElseThrow();
    assertThat(after.status()).isEqualTo(TransformResult.Status.SKIPPED);
    assertThat(after.reason()).isEqualTo("skipped: upstream transform MissingInput.reads did not succeed");
    assertThat(report.format()).contains("FAILED", "SKIPPED", "MissingInput.after");
  }

  @Test
  void aMissingEngineNamesTheHandleAndTheArtifact() {
    TransformResult result = build(NeedsAbsentEngine.class).results().get(0);
    assertThat(result.error().orElseThrow()).isInstanceOf(EngineNotFoundException.class)
        .hasMessage("No engine handles OtherEngineOutput (transform NeedsAbsentEngine.write needs engine 'absent'): "
            + "add dev.transforms:sdk-absent to the classpath");
  }

  @Test
  void aConcurrentCommitToAnOutputFailsThePublishAndIsKept() {
    build(IncrementalCopy.class);
    RacingWriter.catalog = catalog;
    TransformResult result = build(RacingWriter.class).result("copy").orElseThrow();
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.error().orElseThrow()).isInstanceOf(PublishConflictException.class)
        .hasMessageContaining("Cannot publish transform copy: output /out/copied")
        .hasMessageContaining("nothing was published");
    assertThat(IdTables.ids(table(COPIED), null)).containsExactly(1L, 2L, 3L, 999L);
    assertThat(table(COPIED).refs()).containsOnlyKeys("main");
  }

  static long snapshotCount(Table table) {
    return java.util.stream.StreamSupport.stream(table.snapshots().spliterator(), false).count();
  }
}
