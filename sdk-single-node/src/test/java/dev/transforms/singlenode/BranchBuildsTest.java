package dev.transforms.singlenode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.Incremental;
import dev.transforms.api.PublishConflictException;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Branch builds on the single-node engine: a two-step pipeline built on branch {@code dev} reads the
 * inputs' {@code dev} where they have it and {@code main} otherwise, publishes to {@code dev} only, keeps
 * its incremental state and up-to-date skipping per branch, and is then promoted or dropped.
 */
public class BranchBuildsTest {

  static final TableIdentifier SOURCE = TableIdentifier.of(Namespace.of("src"), "people");
  static final TableIdentifier MID = TableIdentifier.of(Namespace.of("mid"), "people");
  static final TableIdentifier OUT = TableIdentifier.of(Namespace.of("out"), "people");

  @TempDir Path warehouse;
  Transforms runner;
  Catalog catalog;
  Table source;

  /** Copies the people incrementally: the rows appended since its last build. */
  public static class Copy {
    @Transform(name = "copy")
    @Incremental
    public void copy(@TableInput("/src/people") IcebergInput in, @TableOutput("/mid/people") IcebergOutput out) {
      out.writeTable(in.addedRows());
    }
  }

  /** Copies the copy in full. */
  public static class Publish {
    @Transform(name = "publish")
    public void publish(@TableInput("/mid/people") IcebergInput in, @TableOutput("/out/people") IcebergOutput out) {
      out.writeTable(in.arrow());
    }
  }

  /** Writes a table that does not exist on main. */
  public static class Fresh {
    @Transform(name = "fresh")
    public void fresh(@TableInput("/src/people") IcebergInput in, @TableOutput("/out/fresh") IcebergOutput out) {
      out.writeTable(in.arrow());
    }
  }

  @BeforeEach
  void setUp() {
    open(TransformsConfig.embedded(warehouse));
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    source = catalog.createTable(SOURCE, SingleNodeEngineTest.SCHEMA);
    SingleNodeEngineTest.append(source, 1, 2);
    assertSucceeded(runner.build(Copy.class, Publish.class));
  }

  private void open(TransformsConfig config) {
    if (runner != null) {
      runner.close();
    }
    runner = Transforms.open(config);
    catalog = runner.catalog("local");
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  private BuildReport onDev() {
    return runner.build(Transforms.Selection.of(Copy.class, Publish.class).branch("dev"));
  }

  /** Appends rows to a branch of the source, cutting it from main first if needed. */
  private void appendOn(String branch, long... ids) {
    source.refresh();
    if (!source.refs().containsKey(branch)) {
      source.manageSnapshots().createBranch(branch).commit();
    }
    try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator()) {
      org.apache.iceberg.AppendFiles append = source.newAppend().toBranch(branch);
      SingleNodeEngineTest.dataFiles(source, allocator, ids).forEach(append::appendFile);
      append.commit();
    }
  }

  /** The ids in a table at a ref. */
  private TreeSet<Long> ids(TableIdentifier id, String ref) {
    Table table = catalog.loadTable(id);
    TreeSet<Long> ids = new TreeSet<>();
    SnapshotRef at = table.refs().get(ref);
    if (at == null) {
      return ids;
    }
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).useSnapshot(at.snapshotId()).build()) {
      records.forEach(r -> ids.add((Long) r.getField("id")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ids;
  }

  /** What readers of main see of the pipeline's tables: rows, schema, snapshot id, and the table list. */
  private String mainSeen() {
    StringBuilder seen = new StringBuilder();
    for (TableIdentifier id : List.of(MID, OUT)) {
      Table table = catalog.loadTable(id);
      seen.append(id).append(": ").append(ids(id, SnapshotRef.MAIN_BRANCH)).append(' ')
          .append(table.schema().asStruct()).append(' ').append(table.currentSnapshot().snapshotId()).append('\n');
    }
    for (Namespace namespace : ((SupportsNamespaces) catalog).listNamespaces()) {
      seen.append(namespace).append(' ').append(new TreeSet<>(catalog.listTables(namespace).stream()
          .map(TableIdentifier::toString).toList())).append('\n');
    }
    return seen.toString();
  }

  private Map<String, String> metadataOf(TableIdentifier id) {
    TableMetadata metadata = ((HasTableOperations) catalog.loadTable(id)).operations().current();
    return new TreeMap<>(Map.of("refs", new TreeMap<>(metadata.refs()).toString(), "properties",
        new TreeMap<>(metadata.properties()).toString(), "main", String.valueOf(metadata.currentSnapshot())));
  }

  private static TransformResult result(BuildReport report, String transform) {
    return report.results().stream().filter(r -> r.transform().equals(transform)).findFirst().orElseThrow();
  }

  private static void assertSucceeded(BuildReport report) {
    for (TransformResult result : report.results()) {
      assertThat(result.status()).as(result.transform() + ": " + result.error().map(Throwable::toString).orElse(""))
          .isIn(TransformResult.Status.SUCCEEDED, TransformResult.Status.UP_TO_DATE);
    }
  }

  @Test
  void aBranchBuildReadsTheBranchPublishesToItAndLeavesMainUntouched() {
    appendOn("dev", 3);
    String before = mainSeen();

    BuildReport report = onDev();

    assertSucceeded(report);
    assertThat(result(report, "copy").status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    // Its first build on the branch starts from the state main had where the branch was cut.
    assertThat(result(report, "copy").incremental()).as(result(report, "copy").reason()).isTrue();
    assertThat(ids(MID, "dev")).containsExactly(1L, 2L, 3L);
    assertThat(ids(OUT, "dev")).containsExactly(1L, 2L, 3L);
    assertThat(mainSeen()).isEqualTo(before);
    assertThat(catalog.loadTable(MID).refs().keySet()).containsExactlyInAnyOrder("main", "dev");
  }

  /**
   * Zero-copy: a branch build writes only what its transforms write. The incremental copy's branch holds
   * main's data files themselves (same paths) plus one file of the new row, and the warehouse's data bytes
   * grow by exactly the bytes the branch's own snapshots added.
   */
  @Test
  void aBranchBuildCopiesNoDataFileMainHolds() throws IOException {
    appendOn("dev", 3);
    long before = dataBytes();

    assertSucceeded(onDev());

    Table mid = catalog.loadTable(MID);
    java.util.Set<String> onMain = dataFiles(mid, mid.currentSnapshot().snapshotId());
    java.util.Set<String> onDev = dataFiles(mid, mid.refs().get("dev").snapshotId());
    assertThat(onDev).containsAll(onMain).hasSize(onMain.size() + 1);
    long added = 0;
    for (TableIdentifier id : List.of(MID, OUT)) {
      Table table = catalog.loadTable(id);
      java.util.Set<Long> mains = new java.util.HashSet<>();
      org.apache.iceberg.util.SnapshotUtil.ancestorIds(table.currentSnapshot(), table::snapshot).forEach(mains::add);
      for (Long snapshot : org.apache.iceberg.util.SnapshotUtil.ancestorIds(table.snapshot(
          table.refs().get("dev").snapshotId()), table::snapshot)) {
        if (!mains.contains(snapshot)) {
          added += Long.parseLong(table.snapshot(snapshot).summary().getOrDefault("added-files-size", "0"));
        }
      }
    }
    assertThat(added).isPositive();
    assertThat(dataBytes() - before).isEqualTo(added);
  }

  private static java.util.Set<String> dataFiles(Table table, long snapshot) throws IOException {
    java.util.Set<String> paths = new java.util.HashSet<>();
    try (CloseableIterable<org.apache.iceberg.FileScanTask> tasks = table.newScan().useSnapshot(snapshot).planFiles()) {
      tasks.forEach(t -> paths.add(t.file().location()));
    }
    return paths;
  }

  /** The bytes of every Parquet data file under the warehouse. */
  private long dataBytes() throws IOException {
    try (java.util.stream.Stream<Path> files = Files.walk(warehouse)) {
      return files.filter(f -> f.toString().endsWith(".parquet")).mapToLong(f -> {
        try {
          return Files.size(f);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).sum();
    }
  }

  @Test
  void anInputWithoutTheBranchIsReadAtMainAndAnUnchangedOneIsUpToDate() {
    BuildReport first = onDev();
    assertThat(result(first, "copy").status()).as(result(first, "copy").reason())
        .isEqualTo(TransformResult.Status.UP_TO_DATE);

    SingleNodeEngineTest.append(source, 4);
    String before = mainSeen();
    BuildReport second = onDev();

    assertSucceeded(second);
    assertThat(ids(MID, "dev")).containsExactly(1L, 2L, 4L);
    assertThat(ids(OUT, "dev")).containsExactly(1L, 2L, 4L);
    assertThat(mainSeen()).isEqualTo(before);
    BuildReport third = onDev();
    assertThat(third.results()).allSatisfy(r -> assertThat(r.status()).as(r.transform() + " " + r.reason())
        .isEqualTo(TransformResult.Status.UP_TO_DATE));
  }

  @Test
  void theStateOfTheBranchIsItsOwn() {
    appendOn("dev", 3);
    assertSucceeded(onDev());

    // main does not see the branch's state: its build is still up to date.
    BuildReport onMain = runner.build(Copy.class, Publish.class);
    assertThat(onMain.results()).allSatisfy(r -> assertThat(r.status()).as(r.transform() + " " + r.reason())
        .isEqualTo(TransformResult.Status.UP_TO_DATE));

    appendOn("dev", 5);
    BuildReport again = onDev();
    assertThat(result(again, "copy").incremental()).as(result(again, "copy").reason()).isTrue();
    assertThat(ids(MID, "dev")).containsExactly(1L, 2L, 3L, 5L);
    assertThat(ids(MID, "main")).containsExactly(1L, 2L);
  }

  @Test
  void fallbacksAreReadInTheirOrder() throws IOException {
    Path file = warehouse.resolveSibling("branches.properties");
    Files.writeString(file, "warehouse=" + warehouse + "\nbranch.fallbacks=staging,main\n");
    open(TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), warehouse.getParent()));
    source = catalog.loadTable(SOURCE);
    appendOn("staging", 7);

    assertSucceeded(onDev());

    assertThat(ids(MID, "dev")).containsExactly(1L, 2L, 7L);
    assertThat(ids(MID, "main")).containsExactly(1L, 2L);
  }

  @Test
  void promoteFastForwardsMainOfEveryOutputAndCarriesTheState() {
    appendOn("dev", 3);
    assertSucceeded(onDev());

    List<String> promoted = runner.promote(Transforms.Selection.of(Copy.class, Publish.class), "dev");

    assertThat(promoted).containsExactly("/mid/people", "/out/people");
    assertThat(ids(MID, "main")).containsExactly(1L, 2L, 3L);
    assertThat(ids(OUT, "main")).containsExactly(1L, 2L, 3L);
    assertThat(catalog.loadTable(MID).refs().keySet()).containsExactly("main");
    assertThat(catalog.loadTable(MID).properties().keySet()).noneMatch(k -> k.startsWith("transforms.branch."));
    // The branch's build is main's now: copy's output is at what it published, so it is not rebuilt in full.
    source.refresh();
    source.manageSnapshots().fastForwardBranch("main", "dev").commit();
    BuildReport onMain = runner.build(Copy.class, Publish.class);
    assertThat(onMain.results()).allSatisfy(r -> assertThat(r.status()).as(r.transform() + " " + r.reason())
        .isEqualTo(TransformResult.Status.UP_TO_DATE));
  }

  @Test
  void promoteRefusesWhereMainMovedAndChangesNothing() {
    appendOn("dev", 3);
    assertSucceeded(onDev());
    SingleNodeEngineTest.append(source, 9);
    assertSucceeded(runner.build(Copy.class, Publish.class)); // main of both outputs moves
    Map<String, String> mid = metadataOf(MID);
    Map<String, String> out = metadataOf(OUT);

    assertThatThrownBy(() -> runner.promote(Transforms.Selection.of(Copy.class, Publish.class), "dev"))
        .isInstanceOf(PublishConflictException.class)
        .hasMessageContaining("branch dev").hasMessageContaining("/mid/people").hasMessageContaining("/out/people")
        .hasMessageContaining("transforms branch drop dev");

    assertThat(metadataOf(MID)).isEqualTo(mid);
    assertThat(metadataOf(OUT)).isEqualTo(out);
  }

  @Test
  void dropRemovesTheBranchAndItsStateAndLeavesMain() {
    appendOn("dev", 3);
    assertSucceeded(onDev());
    String before = mainSeen();
    int snapshots = ((HasTableOperations) catalog.loadTable(MID)).operations().current().snapshots().size();

    assertThat(runner.branches(Transforms.Selection.of(Copy.class, Publish.class)))
        .isEqualTo(Map.of("dev", List.of("/mid/people", "/out/people")));
    List<String> dropped = runner.dropBranch(Transforms.Selection.of(Copy.class, Publish.class), "dev");

    assertThat(dropped).containsExactly("/mid/people", "/out/people");
    assertThat(mainSeen()).isEqualTo(before);
    Table mid = catalog.loadTable(MID);
    assertThat(mid.refs().keySet()).containsExactly("main");
    assertThat(mid.properties().keySet()).noneMatch(k -> k.startsWith("transforms.branch."));
    assertThat(((HasTableOperations) mid).operations().current().snapshots().size()).isLessThan(snapshots);
    assertThat(runner.branches(Transforms.Selection.of(Copy.class, Publish.class))).isEmpty();
  }

  @Test
  void aBranchBuildCannotCreateATableAndLeavesNone() {
    TransformResult fresh = result(runner.build(Transforms.Selection.of(Fresh.class).branch("dev")), "fresh");

    assertThat(fresh.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(fresh.error().orElseThrow()).hasMessageContaining("/out/fresh").hasMessageContaining("branch dev")
        .hasMessageContaining("Build fresh on main first");
    assertThat(catalog.tableExists(TableIdentifier.of(Namespace.of("out"), "fresh"))).isFalse();
  }

  @Test
  void badBranchNamesAreRefusedNamingThem() {
    Transforms.Selection selection = Transforms.Selection.of(Copy.class);
    assertThatThrownBy(() -> selection.branch("main")).hasMessageContaining("'main'");
    assertThatThrownBy(() -> selection.branch("transforms_abc")).hasMessageContaining("'transforms_abc'")
        .hasMessageContaining("staging");
    assertThatThrownBy(() -> selection.branch("my branch")).hasMessageContaining("'my branch'");
    assertThatThrownBy(() -> runner.promote(selection, "a.b")).hasMessageContaining("'a.b'");
  }
}
