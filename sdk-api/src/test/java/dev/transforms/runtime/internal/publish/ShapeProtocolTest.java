package dev.transforms.runtime.internal.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.Incremental;
import dev.transforms.api.PublishConflictException;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.SchemaMismatchException;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.DatasetPath;
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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
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
 * The publish protocol covers the whole table: a new output appears with its first rows in one commit,
 * a schema change reaches readers with the rows that need it, and a build that fails, dies or loses a
 * race leaves the table's shape, history and files as they were.
 */
public class ShapeProtocolTest {

  static final TableIdentifier SOURCE = TableIdentifier.of(Namespace.of("src"), "numbers");
  static final TableIdentifier A = TableIdentifier.of(Namespace.of("out"), "a");
  static final Map<String, String> SEEN = new ConcurrentHashMap<>();
  static volatile Catalog reader;

  @TempDir Path warehouse;
  BuildRunner runner;
  Catalog catalog;

  @BeforeEach
  void setUp() {
    runner = new BuildRunner(TransformsConfig.embedded(warehouse));
    catalog = runner.catalogs().catalog("local");
    reader = catalog;
    SEEN.clear();
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    IdTables.append(catalog.createTable(SOURCE, IdTables.SCHEMA), null, Map.of(), 1, 2, 3);
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  /** What a reader of the catalog sees of /out/a right now. */
  static String seenByReader() {
    if (!reader.tableExists(A)) {
      return "no table";
    }
    Table table = reader.loadTable(A);
    return table.schema().columns().stream().map(Types.NestedField::name).toList().toString();
  }

  /** Copies every row, adding a column to its output first; throws when told to. */
  public static class AddsAColumn {
    static volatile boolean fail;

    @Transform(name = "adds")
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/a") TestOutput out) {
      Table table = out.table();
      table.updateSchema().addColumn("note", Types.StringType.get()).commit();
      table.updateProperties().set("owner", "numbers-team").commit();
      out.append(in.ids().stream().mapToLong(Long::longValue).toArray());
      SEEN.put("during", seenByReader());
      SEEN.put("staged", table.schema().columns().stream().map(Types.NestedField::name).toList().toString());
      if (fail) {
        throw new IllegalStateException("failed after the schema change");
      }
    }
  }

  /** Copies every row. */
  public static class Copy {
    @Transform(name = "adds")
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/a") TestOutput out) {
      out.append(in.ids().stream().mapToLong(Long::longValue).toArray());
      SEEN.put("during", seenByReader());
    }
  }

  /** Appends new rows, adding a column; its output keeps the configured policy. */
  public static class IncrementalAdds {
    static volatile boolean add;

    @Transform(name = "incremental")
    @Incremental
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/a") TestOutput out) {
      if (add) {
        out.table().updateSchema().addColumn("note", Types.StringType.get()).commit();
      }
      out.append(in.addedIds().stream().mapToLong(Long::longValue).toArray());
    }
  }

  /** The same, with an output that takes new columns. */
  public static class IncrementalAppendsColumns {
    @Transform(name = "incremental")
    @Incremental
    public void copy(@TableInput("/src/numbers") TestInput in,
        @TableOutput(value = "/out/a", onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) TestOutput out) {
      new IncrementalAdds().copy(in, out);
    }
  }

  /** Copies the rows /out/a gained since its last build to /out/b. */
  public static class Downstream {
    @Transform(name = "downstream")
    @Incremental
    public void copy(@TableInput("/out/a") TestInput in, @TableOutput("/out/b") TestOutput out) {
      out.append(in.addedIds().stream().mapToLong(Long::longValue).toArray());
    }
  }

  /** Adds the column its racer names, once both racers have staged. */
  public static class Racer {
    static volatile CyclicBarrier barrier;
    static final Map<Long, String> COLUMN = new ConcurrentHashMap<>();

    @Transform(name = "adds")
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/a") TestOutput out) throws Exception {
      barrier.await(30, TimeUnit.SECONDS);
      out.addColumn(COLUMN.get(Thread.currentThread().getId()));
      out.append(in.ids().stream().mapToLong(Long::longValue).toArray());
      barrier.await(30, TimeUnit.SECONDS);
    }
  }

  private BuildReport build(BuildRunner with, Class<?>... classes) {
    List<TransformSpec> specs = new ArrayList<>();
    for (Class<?> type : classes) {
      specs.addAll(ReflectiveModels.transformsOf(type));
    }
    return with.run(BuildPlan.of(specs), BuildListener.NONE);
  }

  private TransformResult only(BuildReport report) {
    return report.results().get(0);
  }

  private Table table() {
    return catalog.loadTable(A);
  }

  private static List<String> columns(Schema schema) {
    return schema.columns().stream().map(Types.NestedField::name).toList();
  }

  /** Everything that tells a table's state: its metadata but for the bookkeeping of time. */
  private static String state(Table table) {
    table.refresh();
    TableMetadata metadata = ((HasTableOperations) table).operations().current();
    return metadata.currentSchemaId() + " " + metadata.schemasById().keySet() + " " + metadata.defaultSpecId() + " "
        + metadata.specsById().keySet() + " " + new java.util.TreeMap<>(metadata.properties()) + " " + metadata.refs()
        + " " + metadata.snapshots().stream().map(Snapshot::snapshotId).toList();
  }

  @Test
  void aNewOutputAppearsWithItsFirstRowsInOneSnapshot() {
    TransformResult result = only(build(runner, Copy.class));

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(SEEN.get("during")).isEqualTo("no table");
    Table a = table();
    assertThat(a.snapshots()).hasSize(1);
    assertThat(a.currentSnapshot().summary()).containsEntry("added-records", "3");
    assertThat(IdTables.ids(a, null)).containsExactly(1L, 2L, 3L);
    assertThat(a.properties().keySet()).noneMatch(k -> k.startsWith(StagingMarks.LEASE_PREFIX));
    assertThat(result.outputs().get(0).created()).isTrue();
    assertThat(result.outputs().get(0).snapshots()).isEqualTo(1);
  }

  @Test
  void aSchemaChangeReachesReadersWithTheRowsAndTimeTravelKeepsTheOldSchema() {
    AddsAColumn.fail = false;
    assertThat(only(build(runner, Copy.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    long before = table().currentSnapshot().snapshotId();

    TransformResult result = only(build(runner, AddsAColumn.class));

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(SEEN.get("during")).isEqualTo("[id]");
    assertThat(SEEN.get("staged")).isEqualTo("[id, note]");
    Table a = table();
    assertThat(columns(a.schema())).containsExactly("id", "note");
    assertThat(a.schema().findField("id").fieldId()).isEqualTo(1);
    assertThat(a.properties()).containsEntry("owner", "numbers-team")
        .doesNotContainKey(StagedShape.key(IncrementalState.fromProperties(a.properties()).orElseThrow().buildId()));
    assertThat(a.schemas().get(a.currentSnapshot().schemaId()).findField("note")).isNotNull();
    assertThat(columns(a.schemas().get(a.snapshot(before).schemaId()))).containsExactly("id");
    assertThat(IdTables.ids(a, before)).containsExactly(1L, 2L, 3L);
    assertThat(result.outputs().get(0).schemaChanges()).containsExactly("note added (string)");
    assertThat(a.refs()).containsOnlyKeys("main");
  }

  @Test
  void aRunThatFailsAfterChangingTheSchemaLeavesTheTableAsItWas() {
    assertThat(only(build(runner, Copy.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    String before = state(table());
    AddsAColumn.fail = true;

    TransformResult result = only(build(runner, AddsAColumn.class));

    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(SEEN.get("during")).isEqualTo("[id]");
    assertThat(state(table())).isEqualTo(before);
  }

  @Test
  void anIncrementalBuildChangesTheSchemaOnlyAsItsPolicyAllows() {
    IncrementalAdds.add = false;
    assertThat(only(build(runner, IncrementalAdds.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    IdTables.append(catalog.loadTable(SOURCE), null, Map.of(), 4);
    String before = state(table());
    IncrementalAdds.add = true;

    TransformResult refused = only(build(runner, IncrementalAdds.class));

    assertThat(refused.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(refused.incremental()).isTrue();
    assertThat(refused.error().orElseThrow()).isInstanceOf(SchemaMismatchException.class)
        .hasMessageContaining("/out/a").hasMessageContaining("note: not in the table (string)")
        .hasMessageContaining("policy (fail)").hasMessageContaining("transforms build --full incremental");
    assertThat(state(table())).isEqualTo(before);

    // The way out the error names: a full build, asked for by name, takes the new column.
    TransformResult full = only(runner.run(BuildPlan.of(ReflectiveModels.transformsOf(IncrementalAdds.class)),
        BuildListener.NONE, new dev.transforms.runtime.internal.build.BuildOptions(Set.of("incremental"), Set.of())));
    assertThat(full.status()).as(String.valueOf(full.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(full.incremental()).isFalse();
    assertThat(full.reason()).isEqualTo("a full build was asked for (--full)");
    assertThat(columns(table().schema())).containsExactly("id", "note");
    IncrementalAdds.add = false;
    catalog.dropTable(A, true);
    assertThat(only(build(runner, IncrementalAdds.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    IdTables.append(catalog.loadTable(SOURCE), null, Map.of(), 5);
    IncrementalAdds.add = true;

    TransformResult added = only(build(runner, IncrementalAppendsColumns.class));
    assertThat(added.status()).as(String.valueOf(added.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(added.incremental()).isTrue();
    assertThat(columns(table().schema())).containsExactly("id", "note");
    assertThat(IdTables.ids(table(), null)).containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void aDownstreamTransformSaysItsInputsSchemaChangedAndStaysIncrementalOnlyForNewOptionalColumns() {
    IncrementalAdds.add = false;
    assertThat(only(build(runner, IncrementalAdds.class, Downstream.class)).status())
        .isEqualTo(TransformResult.Status.SUCCEEDED);
    IdTables.append(catalog.loadTable(SOURCE), null, Map.of(), 4);
    IncrementalAdds.add = true;

    BuildReport added = build(runner, IncrementalAppendsColumns.class, Downstream.class);

    TransformResult downstream = added.result("downstream").orElseThrow();
    assertThat(downstream.status()).as(String.valueOf(downstream.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(downstream.incremental()).isTrue();
    assertThat(downstream.reason()).contains("input /out/a schema changed: note added (string)")
        .contains("earlier rows read as null");
    assertThat(IdTables.ids(catalog.loadTable(TableIdentifier.of(Namespace.of("out"), "b")), null))
        .containsExactly(1L, 2L, 3L, 4L);

    // A column dropped upstream: rows read before may not match, so the next build is full.
    Table a = table();
    a.updateSchema().deleteColumn("note").commit();
    IdTables.append(a, null, Map.of(), 5);
    TransformResult full = only(build(runner, Downstream.class));
    assertThat(full.incremental()).isFalse();
    assertThat(full.reason()).contains("input /out/a schema changed: note dropped (string)");
  }

  @Test
  void whatADeadBuildStagedOfASchemaIsRemovedWithItsBranch() throws Exception {
    assertThat(only(build(runner, Copy.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    String before = state(table());
    String dead = "deadbeef0007";
    // A build stages the output, adds a column and a row, and dies.
    OutputPublisher staged = OutputPublisher.stage("adds", dead, List.of(new OutputPublisher.Output(
        DatasetPath.of("/out/a"), runner.resolver().resolve(DatasetPath.of("/out/a")), catalog, table())));
    dev.transforms.runtime.spi.BoundOutput bound = new dev.transforms.runtime.spi.BoundOutput(
        ReflectiveModels.transformsOf(Copy.class).get(0).outputs().get(0),
        runner.resolver().resolve(DatasetPath.of("/out/a")), java.util.Optional.of(table()), java.util.Optional.empty());
    Table stagedTable = staged.table(bound).orElseThrow();
    stagedTable.updateSchema().addColumn("ghost", Types.StringType.get()).commit();
    IdTables.append(stagedTable, staged.branch(bound), Map.of(IncrementalState.SUMMARY_BUILD_ID, dead), 9);
    Table a = table();
    assertThat(a.schemas()).hasSizeGreaterThan(1);
    assertThat(columns(a.schema())).containsExactly("id");
    a.updateProperties().set(StagingMarks.leaseKey(dead), PublishProtocolTest.deadLease(dead)).commit();

    TransformResult next = only(build(runner, Copy.class));

    // Its inputs did not move: the output is up to date once what the dead build left is removed.
    assertThat(next.status()).as(String.valueOf(next.error())).isEqualTo(TransformResult.Status.UP_TO_DATE);
    assertThat(next.recovery()).singleElement().asString().contains("dead build " + dead);
    Table after = table();
    assertThat(after.schemas().keySet()).as("the dead build's schema is gone").isEqualTo(schemaIds(before));
    assertThat(after.properties().keySet()).noneMatch(k -> k.startsWith(StagedShape.PREFIX));
    assertThat(after.refs()).containsOnlyKeys("main");
  }

  private static Set<Integer> schemaIds(String state) {
    String ids = state.substring(state.indexOf('[') + 1, state.indexOf(']'));
    Set<Integer> set = new HashSet<>();
    for (String id : ids.split(", ")) {
      set.add(Integer.parseInt(id.trim()));
    }
    return set;
  }

  @Test
  void twoBuildsChangingTheSchemaAtOnceLeaveTheWinnersShapeAndNothingOfTheLosers() throws Exception {
    assertThat(only(build(runner, Copy.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    int schemasBefore = table().schemas().size();
    Racer.barrier = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (BuildRunner other = new BuildRunner(TransformsConfig.embedded(warehouse))) {
      Future<BuildReport> first = pool.submit(() -> {
        Racer.COLUMN.put(Thread.currentThread().getId(), "left");
        return build(runner, Racer.class);
      });
      Future<BuildReport> second = pool.submit(() -> {
        Racer.COLUMN.put(Thread.currentThread().getId(), "right");
        return build(other, Racer.class);
      });
      List<TransformResult> results = List.of(only(first.get(60, TimeUnit.SECONDS)),
          only(second.get(60, TimeUnit.SECONDS)));
      assertThat(results).as(results.toString()).filteredOn(r -> r.status() == TransformResult.Status.SUCCEEDED)
          .hasSize(1);
      assertThat(results).filteredOn(r -> r.status() == TransformResult.Status.FAILED).singleElement()
          .satisfies(r -> assertThat(r.error().orElseThrow()).isInstanceOf(PublishConflictException.class));
    } finally {
      pool.shutdownNow();
    }
    Table a = table();
    List<String> names = columns(a.schema());
    assertThat(names).hasSize(2).startsWith("id").containsAnyOf("left", "right");
    assertThat(a.schemas()).as("the loser's schema was removed").hasSize(schemasBefore + 1);
    assertThat(a.properties().keySet()).noneMatch(k -> k.startsWith(StagedShape.PREFIX)
        || k.startsWith(StagingMarks.LEASE_PREFIX));
    assertThat(a.refs()).containsOnlyKeys("main");
  }

  @Test
  void twoFirstBuildsRacingLeaveNoFileOfTheLoser() throws Exception {
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("out"));
    List<TransformResult> results = List.of();
    PublishProtocolTest.Racer.barrier = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (BuildRunner other = new BuildRunner(TransformsConfig.embedded(warehouse))) {
      Future<BuildReport> first = pool.submit(() -> build(runner, PublishProtocolTest.Racer.class));
      Future<BuildReport> second = pool.submit(() -> build(other, PublishProtocolTest.Racer.class));
      results = List.of(only(first.get(60, TimeUnit.SECONDS)), only(second.get(60, TimeUnit.SECONDS)));
      assertThat(results).filteredOn(r -> r.status() == TransformResult.Status.FAILED).singleElement()
          .satisfies(r -> assertThat(r.error().orElseThrow()).isInstanceOf(PublishConflictException.class));
    } finally {
      pool.shutdownNow();
    }
    Table a = table();
    assertThat(IdTables.ids(a, null)).containsExactly(1L, 2L, 3L);
    Set<String> files = filesUnder(Path.of(java.net.URI.create(a.location())));
    Set<String> referenced = referenced(a);
    // On failure, say whose each file left behind is: a metadata file names the table it belongs to.
    StringBuilder leftovers = new StringBuilder("table " + a.uuid() + "; " + results + "; left:");
    files.stream().filter(f -> !referenced.contains(f)).forEach(f -> leftovers.append(' ').append(f)
        .append(f.endsWith(".metadata.json") ? " (table " + TableMetadataParser.read(a.io(), f).uuid() + ")" : ""));
    assertThat(files).as(leftovers.toString()).isEqualTo(referenced);
  }

  /** Every file under a table's folder. */
  private static Set<String> filesUnder(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      Set<String> found = new HashSet<>();
      files.filter(Files::isRegularFile).forEach(f -> found.add(f.toAbsolutePath().toString()));
      return found;
    }
  }

  /** Every file a table's metadata names: metadata files, manifest lists, manifests, data files. */
  private static Set<String> referenced(Table table) {
    TableMetadata metadata = ((HasTableOperations) table).operations().current();
    Set<String> files = new HashSet<>();
    files.add(local(metadata.metadataFileLocation()));
    metadata.previousFiles().forEach(f -> files.add(local(f.file())));
    for (Snapshot snapshot : table.snapshots()) {
      files.add(local(snapshot.manifestListLocation()));
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        files.add(local(manifest.path()));
      }
      snapshot.addedDataFiles(table.io()).forEach(f -> files.add(local(f.location())));
    }
    return files;
  }

  private static String local(String location) {
    return Path.of(java.net.URI.create(location.startsWith("file:/") && !location.startsWith("file:///")
        ? "file://" + location.substring("file:".length()) : location)).toAbsolutePath().toString();
  }

  @Test
  void aSchemaChangeMadeAroundTheBuildFailsItsPublicationAndIsKept() {
    assertThat(only(build(runner, Copy.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    Sneaky.catalog = catalog;

    TransformResult result = only(build(runner, Sneaky.class));

    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.error().orElseThrow()).isInstanceOf(PublishConflictException.class)
        .hasMessageContaining("changed outside this build").hasMessageContaining("outside_column");
    assertThat(columns(table().schema())).containsExactly("id", "outside_column");
    assertThat(table().refs()).containsOnlyKeys("main");
  }

  /** Changes its output's schema through the catalog's own table, past the staged one. */
  public static class Sneaky {
    static volatile Catalog catalog;

    @Transform(name = "adds")
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/a") TestOutput out) {
      catalog.loadTable(A).updateSchema().addColumn("outside_column", Types.IntegerType.get()).commit();
      out.append(in.ids().stream().mapToLong(Long::longValue).toArray());
    }
  }
}
