package dev.transforms.runtime.internal.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.PublishConflictException;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.BuildRunner;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.runtime.spi.TransformSpec;
import dev.transforms.testengine.IdTables;
import dev.transforms.testengine.TestInput;
import dev.transforms.testengine.TestOutput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The publish protocol against what builds that died, or run at the same time, leave behind: the
 * next build removes a dead build's branch, snapshots and files, drops the table it never published,
 * finishes a publication it left half done, and never touches what a running build stages.
 */
public class PublishProtocolTest {

  static final TableIdentifier SOURCE = TableIdentifier.of(Namespace.of("src"), "numbers");
  static final TableIdentifier A = TableIdentifier.of(Namespace.of("out"), "a");
  static final TableIdentifier B = TableIdentifier.of(Namespace.of("out"), "b");

  @TempDir Path warehouse;
  BuildRunner runner;
  Catalog catalog;

  @BeforeEach
  void setUp() {
    runner = new BuildRunner(TransformsConfig.embedded(warehouse));
    catalog = runner.catalogs().catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    IdTables.append(catalog.createTable(SOURCE, IdTables.SCHEMA), null, Map.of(), 1, 2, 3);
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  /** Copies every input row to one output. */
  public static class CopyToA {
    @Transform(name = "copy")
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/a") TestOutput a) {
      a.append(in.ids().stream().mapToLong(Long::longValue).toArray());
    }
  }

  /** Copies the rows added since the last build to two outputs. */
  public static class CopyToBoth {
    @Transform(name = "both")
    @dev.transforms.api.Incremental
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/a") TestOutput a,
        @TableOutput("/out/b") TestOutput b) {
      long[] ids = in.addedIds().stream().mapToLong(Long::longValue).toArray();
      if (ids.length > 0) {
        a.append(ids);
        b.append(ids);
      }
    }
  }

  /** Waits for the other racer inside the method (both have staged their outputs), then writes. */
  public static class Racer {
    static volatile CyclicBarrier barrier;

    @Transform(name = "copy")
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/a") TestOutput a) throws Exception {
      barrier.await(30, TimeUnit.SECONDS);
      a.append(in.ids().stream().mapToLong(Long::longValue).toArray());
    }
  }

  private BuildReport build(BuildRunner with, Class<?>... classes) {
    List<TransformSpec> specs = new ArrayList<>();
    for (Class<?> type : classes) {
      specs.addAll(ReflectiveModels.transformsOf(type));
    }
    return with.run(BuildPlan.of(specs), BuildListener.NONE);
  }

  /** Builds even when up to date: these tests are about what a run of the transform does. */
  private BuildReport forced(BuildRunner with, Class<?>... classes) {
    List<TransformSpec> specs = new ArrayList<>();
    for (Class<?> type : classes) {
      specs.addAll(ReflectiveModels.transformsOf(type));
    }
    return with.run(BuildPlan.of(specs), BuildListener.NONE, new dev.transforms.runtime.internal.build.BuildOptions(
        java.util.Set.of(), java.util.Set.copyOf(specs.stream().map(TransformSpec::name).toList())));
  }

  private Table table(TableIdentifier identifier) {
    return catalog.loadTable(identifier);
  }

  private static long snapshotCount(Table table) {
    return StreamSupport.stream(table.snapshots().spliterator(), false).count();
  }

  /** A lease of a process that has ended on this host: its build is dead. */
  static String deadLease(String buildId) throws Exception {
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    BuildLease mine = BuildLease.forThisProcess(buildId);
    return new BuildLease(buildId, mine.host(), ended.pid(), mine.processStart(), mine.expiresAt()).encode();
  }

  /** Leaves on a table what a build killed while writing to its staging branch leaves. */
  private DataFile leaveDeadBranch(Table table, String buildId, long... ids) throws Exception {
    Transaction stage = table.newTransaction();
    stage.manageSnapshots().createBranch(StagingMarks.branch(buildId)).commit();
    stage.updateProperties().set(StagingMarks.leaseKey(buildId), deadLease(buildId)).commit();
    stage.commitTransaction();
    IdTables.append(table, StagingMarks.branch(buildId), Map.of(), ids);
    table.refresh();
    java.util.Set<String> onMain = new java.util.HashSet<>();
    if (table.currentSnapshot() != null) {
      table.newScan().planFiles().forEach(task -> onMain.add(task.file().location()));
    }
    for (org.apache.iceberg.FileScanTask task : table.newScan().useRef(StagingMarks.branch(buildId)).planFiles()) {
      if (!onMain.contains(task.file().location())) {
        return task.file();
      }
    }
    throw new IllegalStateException("the branch added no file");
  }

  @Test
  void aDeadBuildsBranchSnapshotsAndFilesAreRemovedByTheNextBuild() throws Exception {
    assertThat(build(runner, CopyToA.class).succeeded()).isTrue();
    Table a = table(A);
    long published = a.currentSnapshot().snapshotId();
    long snapshots = snapshotCount(a);
    DataFile orphaned = leaveDeadBranch(a, "deadbeef0001", 100, 200);
    assertThat(Files.exists(Path.of(java.net.URI.create(orphaned.location())))).isTrue();

    BuildReport next = forced(runner, CopyToA.class);

    TransformResult result = next.result("copy").orElseThrow();
    assertThat(result.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(result.recovery()).singleElement().asString()
        .contains("dead build deadbeef0001").contains("/out/a").contains("1 snapshot");
    assertThat(next.format()).contains("recovered: removed what dead build deadbeef0001 left on output /out/a");
    Table after = table(A);
    assertThat(after.refs()).containsOnlyKeys("main");
    assertThat(after.properties().keySet()).noneMatch(k -> k.startsWith(StagingMarks.LEASE_PREFIX));
    assertThat(IdTables.ids(after, null)).containsExactly(1L, 1L, 2L, 2L, 3L, 3L);
    assertThat(Files.exists(Path.of(java.net.URI.create(orphaned.location())))).isFalse();
    // The dead build's snapshot is gone; the new build's append is on top of the old ones.
    assertThat(after.snapshot(published)).isNotNull();
    assertThat(snapshotCount(after)).isEqualTo(snapshots + 1);
  }

  @Test
  void aRunningBuildsBranchIsLeftAlone() {
    assertThat(build(runner, CopyToA.class).succeeded()).isTrue();
    Table a = table(A);
    String running = StagingMarks.branch("cafe00000001");
    Transaction stage = a.newTransaction();
    stage.manageSnapshots().createBranch(running).commit();
    stage.updateProperties().set(StagingMarks.leaseKey("cafe00000001"),
        BuildLease.forThisProcess("cafe00000001").encode()).commit();
    stage.commitTransaction();

    TransformResult result = forced(runner, CopyToA.class).result("copy").orElseThrow();

    assertThat(result.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(result.recovery()).isEmpty();
    assertThat(table(A).refs()).containsKeys("main", running);
    assertThat(table(A).properties()).containsKey(StagingMarks.leaseKey("cafe00000001"));
  }

  @Test
  void filesADeadFirstBuildLeftWhereItsTableWouldBeAreRemovedByTheNextBuildThatCreatesIt() throws Exception {
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("out"));
    // Where /out/a goes: the embedded catalog's default location.
    Path location = warehouse.resolve("out").resolve("a");
    String dead = "deadbeef0002";
    String running = "cafe00000002";
    Path deadData = location.resolve("data").resolve(StagedCreateFiles.prefix(dead) + "00000-0.parquet");
    Path deadManifest = location.resolve("metadata").resolve(StagedCreateFiles.prefix(dead) + "m0.avro");
    Path runningData = location.resolve("data").resolve(StagedCreateFiles.prefix(running) + "00000-0.parquet");
    Path unclaimed = location.resolve("data").resolve(StagedCreateFiles.prefix("abcdef000003") + "x.parquet");
    for (Path file : List.of(deadData, deadManifest, runningData, unclaimed)) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, "not really parquet");
    }
    Files.writeString(location.resolve("metadata").resolve(StagedCreateFiles.prefix(dead) + "create.lease"),
        deadLease(dead));
    Files.writeString(location.resolve("metadata").resolve(StagedCreateFiles.prefix(running) + "create.lease"),
        BuildLease.forThisProcess(running).encode());

    TransformResult result = build(runner, CopyToA.class).result("copy").orElseThrow();

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(result.recovery()).as(table(A).location()).singleElement().asString().contains("dead build " + dead).contains("2 files");
    assertThat(deadData).doesNotExist();
    assertThat(deadManifest).doesNotExist();
    assertThat(location.resolve("metadata").resolve(StagedCreateFiles.prefix(dead) + "create.lease")).doesNotExist();
    // A running build's files, and files no lease claims, are not this build's to judge.
    assertThat(runningData).exists();
    assertThat(unclaimed).exists();
    assertThat(IdTables.ids(table(A), null)).containsExactly(1L, 2L, 3L);
  }

  @Test
  void aPublicationADeadBuildLeftHalfDoneIsFinishedFromItsBranch() throws Exception {
    assertThat(build(runner, CopyToBoth.class).succeeded()).isTrue();
    IdTables.append(table(SOURCE), null, Map.of(), 4);
    long source = table(SOURCE).currentSnapshot().snapshotId();

    // Build X wrote 4 to both branches, published /out/a, and died before /out/b.
    String dead = "deadbeef0003";
    IncrementalState state = new IncrementalState("both", 1, dead,
        Map.of(dev.transforms.runtime.DatasetPath.of("/src/numbers"), java.util.OptionalLong.of(source)));
    for (TableIdentifier output : List.of(A, B)) {
      leaveDeadBranch(table(output), dead, 4);
    }
    Table a = table(A);
    org.apache.iceberg.TableOperations operations = ((org.apache.iceberg.HasTableOperations) a).operations();
    org.apache.iceberg.TableMetadata base = operations.refresh();
    operations.commit(base, PublishedMetadata.published(base, dead, StagingMarks.branch(dead), state, Map.of()));

    BuildReport next = build(runner, CopyToBoth.class);

    TransformResult result = next.result("both").orElseThrow();
    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(result.recovery()).singleElement().asString()
        .contains("finished the publication of dead build " + dead + " on output /out/b");
    // Finished, the outputs agree again, so the build is incremental and finds nothing new.
    assertThat(result.incremental()).as(result.reason()).isTrue();
    assertThat(IdTables.ids(table(A), null)).containsExactly(1L, 2L, 3L, 4L);
    assertThat(IdTables.ids(table(B), null)).containsExactly(1L, 2L, 3L, 4L);
    assertThat(table(B).refs()).containsOnlyKeys("main");
  }

  @Test
  void twoFirstBuildsRacingPublishOnceAndTheLoserLeavesTheWinnersTableAlone() throws Exception {
    // The namespace exists: this test is about the table (RacingBuildsTest races on namespaces too).
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("out"));
    Racer.barrier = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (BuildRunner other = new BuildRunner(TransformsConfig.embedded(warehouse))) {
      Future<BuildReport> first = pool.submit(() -> build(runner, Racer.class));
      Future<BuildReport> second = pool.submit(() -> build(other, Racer.class));
      List<TransformResult> results = List.of(first.get(60, TimeUnit.SECONDS).results().get(0),
          second.get(60, TimeUnit.SECONDS).results().get(0));

      assertThat(results).as(results.toString()).filteredOn(r -> r.status() == TransformResult.Status.SUCCEEDED)
          .hasSize(1);
      TransformResult loser = results.stream().filter(r -> r.status() == TransformResult.Status.FAILED)
          .findFirst().orElseThrow();
      assertThat(loser.error().orElseThrow()).isInstanceOf(PublishConflictException.class)
          .hasMessageContaining("/out/a").hasMessageContaining("another build");
    } finally {
      pool.shutdownNow();
    }
    Table a = table(A);
    assertThat(IdTables.ids(a, null)).containsExactly(1L, 2L, 3L);
    assertThat(a.refs()).containsOnlyKeys("main");
    assertThat(a.properties()).containsKey(IncrementalState.BUILD_ID);
    assertThat(a.properties().keySet()).noneMatch(k -> k.startsWith(StagingMarks.LEASE_PREFIX));
  }

  @Test
  void twoBuildsRacingOnAnExistingOutputPublishOneAndTellTheOtherToBuildAgain() throws Exception {
    assertThat(build(runner, CopyToA.class).succeeded()).isTrue();
    long before = snapshotCount(table(A));
    Racer.barrier = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (BuildRunner other = new BuildRunner(TransformsConfig.embedded(warehouse))) {
      Future<BuildReport> first = pool.submit(() -> build(runner, Racer.class));
      Future<BuildReport> second = pool.submit(() -> build(other, Racer.class));
      List<TransformResult> results = List.of(first.get(60, TimeUnit.SECONDS).results().get(0),
          second.get(60, TimeUnit.SECONDS).results().get(0));
      assertThat(results).as(results.toString()).filteredOn(r -> r.status() == TransformResult.Status.SUCCEEDED)
          .hasSize(1);
      assertThat(results).filteredOn(r -> r.status() == TransformResult.Status.FAILED).singleElement()
          .satisfies(r -> assertThat(r.error().orElseThrow()).isInstanceOf(PublishConflictException.class)
              .hasMessageContaining("Build again"));
    } finally {
      pool.shutdownNow();
    }
    Table a = table(A);
    // The winner's append is published; the loser's snapshot was expired with its branch.
    assertThat(IdTables.ids(a, null)).containsExactly(1L, 1L, 2L, 2L, 3L, 3L);
    assertThat(snapshotCount(a)).isEqualTo(before + 1);
    assertThat(a.refs()).containsOnlyKeys("main");
  }
}
