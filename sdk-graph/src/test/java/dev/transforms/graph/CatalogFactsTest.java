package dev.transforms.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.report.LastBuilds;
import dev.transforms.cli.report.TimedResult;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.BuildOptions;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.incremental.CodeFingerprint;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.internal.publish.BuildBranch;
import dev.transforms.runtime.spi.TransformSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogFactsTest {

  private static final Schema SCHEMA = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  /** /g/src -> clean -> /g/clean -> daily -> /g/daily; never -> /g/never. */
  private static final List<TransformSpec> PIPELINE = List.of(
      SyntheticPipeline.transform("clean", List.of("/g/src"), List.of("/g/clean"), "spark"),
      SyntheticPipeline.transform("daily", List.of("/g/clean"), List.of("/g/daily"), "spark"),
      SyntheticPipeline.transform("never", List.of("/g/src"), List.of("/g/never"), "spark"));

  @TempDir Path dir;

  /** Commits a file of {@code rows} rows (metadata only: nobody reads it here). */
  private static long append(Table table, long rows) {
    table.newAppend().appendFile(DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/f" + System.nanoTime() + ".parquet").withFileSizeInBytes(100)
        .withRecordCount(rows).build()).commit();
    return table.currentSnapshot().snapshotId();
  }

  /** Stores the state a build of {@code transform} publishes: its input, its code, the output as published. */
  private static void stamp(Table output, String transform, String build, String input, long snapshot,
      TransformsConfig config) {
    TransformSpec spec = PIPELINE.stream().filter(t -> t.name().equals(transform)).findFirst().orElseThrow();
    var update = output.updateProperties();
    new IncrementalState(transform, 1, build, Map.of(DatasetPath.of(input), OptionalLong.of(snapshot)),
        CodeFingerprint.of(spec, config), Map.of()).toProperties().forEach(update::set);
    update.set(IncrementalState.SNAPSHOT_ID, Long.toString(output.currentSnapshot().snapshotId()));
    update.commit();
  }

  @Test
  void tablesShowRowsAndSnapshotsAndTransformsTheirLastBuildAndWhetherAnInputMovedOn() throws Exception {
    Path warehouse = dir.resolve("warehouse");
    TransformsConfig config = TransformsConfig.embedded(warehouse);
    Instant now = Instant.now();
    java.nio.file.Files.createDirectories(warehouse);
    LastBuilds.record(warehouse, List.of(new TimedResult(new TransformResult("clean", "spark",
        TransformResult.Status.SUCCEEDED, false, "first build", List.of(), Duration.ofMillis(1500), Optional.empty(),
        List.of(), List.of()), now.minusSeconds(30), now.minusSeconds(28))), config.masker());
    try (Catalogs catalogs = new Catalogs(config)) {
      Catalog catalog = catalogs.catalog("local");
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("g"));
      Table src = catalog.createTable(TableIdentifier.of("g", "src"), SCHEMA);
      Table clean = catalog.createTable(TableIdentifier.of("g", "clean"), SCHEMA);
      Table daily = catalog.createTable(TableIdentifier.of("g", "daily"), SCHEMA);
      long first = append(src, 5);
      long cleanSnapshot = append(clean, 4);
      stamp(clean, "clean", "build1", "/g/src", first, config);
      append(daily, 3);
      stamp(daily, "daily", "build2", "/g/clean", cleanSnapshot, config);
      append(src, 5);

      PipelineGraph graph = PipelineGraph.of(PIPELINE, new CatalogFacts(catalogs, config,
          LastBuilds.read(warehouse), now));
      Map<String, GraphNode> nodes = new java.util.HashMap<>();
      graph.nodes().forEach(n -> nodes.put(n.id(), n));

      GraphNode srcNode = nodes.get("dataset:/g/src");
      assertThat(srcNode.lines()).containsExactly("local.g.src", "10 rows, 0 s ago");
      assertThat(srcNode.details()).containsEntry("current snapshot", Long.toString(src.currentSnapshot().snapshotId()))
          .containsEntry("snapshots", "2").containsEntry("catalog table", "`local`.`g`.`src`").containsEntry("produced by", "none (a source)");
      assertThat(srcNode.stale()).isFalse();

      GraphNode cleanNode = nodes.get("transform:clean");
      assertThat(cleanNode.status()).isEqualTo("SUCCEEDED");
      assertThat(cleanNode.stale()).isTrue();
      assertThat(cleanNode.lines()).containsExactly("spark, full", "succeeded 1.50s, 0 rows", "STALE");
      assertThat(cleanNode.details()).containsEntry("reason", "first build").containsEntry("published build", "build1")
          .containsEntry("stale", "yes: input /g/src moved from snapshot " + first + " to "
              + src.currentSnapshot().snapshotId());
      assertThat(nodes.get("dataset:/g/clean").stale()).isTrue();
      assertThat(nodes.get("dataset:/g/clean").lines()).contains("4 rows, 0 s ago", "STALE");

      GraphNode dailyNode = nodes.get("transform:daily");
      assertThat(dailyNode.status()).isEqualTo("PUBLISHED");
      assertThat(dailyNode.stale()).isFalse();
      assertThat(dailyNode.details()).containsEntry("stale", "no");

      GraphNode neverNode = nodes.get("transform:never");
      assertThat(neverNode.status()).isEqualTo("NONE");
      assertThat(neverNode.lines()).contains("not built yet");
      assertThat(nodes.get("dataset:/g/never").status()).isEqualTo("MISSING");
    }
  }

  @Test
  void onABranchTablesAreTheBranchsAndStalenessIsAsItsBuildWouldFindIt() throws Exception {
    Path warehouse = dir.resolve("warehouse");
    TransformsConfig config = TransformsConfig.embedded(warehouse);
    Instant now = Instant.now();
    java.nio.file.Files.createDirectories(warehouse);
    LastBuilds.record(warehouse, List.of(timed("clean", TransformResult.Status.SUCCEEDED, now)), config.masker());
    LastBuilds.record(warehouse, "dev", List.of(timed("clean", TransformResult.Status.FAILED, now)),
        config.masker());
    try (Catalogs catalogs = new Catalogs(config)) {
      Catalog catalog = catalogs.catalog("local");
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("g"));
      Table src = catalog.createTable(TableIdentifier.of("g", "src"), SCHEMA);
      Table clean = catalog.createTable(TableIdentifier.of("g", "clean"), SCHEMA);
      long first = append(src, 5);
      append(clean, 4);
      stamp(clean, "clean", "build1", "/g/src", first, config);
      src.manageSnapshots().createBranch("dev", first).commit();
      src.newAppend().appendFile(DataFiles.builder(PartitionSpec.unpartitioned())
          .withPath(src.location() + "/data/dev.parquet").withFileSizeInBytes(100).withRecordCount(7).build())
          .toBranch("dev").commit();

      Map<String, GraphNode> main = nodes(new CatalogFacts(catalogs, config, LastBuilds.read(warehouse), now));
      Map<String, GraphNode> dev = nodes(new CatalogFacts(catalogs, config, LastBuilds.read(warehouse, "dev"), now,
          BuildOptions.NONE.withBranch("dev", config.values()).branch()));

      assertThat(main.get("dataset:/g/src").lines()).contains("5 rows, 0 s ago");
      assertThat(dev.get("dataset:/g/src").lines()).contains("12 rows, 0 s ago");
      assertThat(main.get("transform:clean").stale()).isFalse();
      assertThat(main.get("transform:clean").status()).isEqualTo("SUCCEEDED");
      assertThat(dev.get("transform:clean").stale()).isTrue();
      assertThat(dev.get("transform:clean").details().get("stale")).contains("input /g/src moved from snapshot "
          + first + " to " + src.refs().get("dev").snapshotId());
      assertThat(dev.get("transform:clean").status()).isEqualTo("FAILED");

      // A branch whose fallbacks the input has none of: stale for the reason plan gives, not a missing input.
      Map<String, GraphNode> nowhere = nodes(new CatalogFacts(catalogs, config, Map.of(), now,
          new BuildBranch("try", List.of("staging"))));
      assertThat(nowhere.get("transform:clean").stale()).isTrue();
      assertThat(nowhere.get("transform:clean").details().get("stale"))
          .contains("a build fails: Input /g/src").contains("has none of the branches [try, staging]");

      // dev promoted: its failed build becomes main's last, and says which branch it ran on.
      assertThat(main.get("transform:clean").details().get("last build")).isEqualTo("SUCCEEDED, full");
      LastBuilds.endBranch(warehouse, "dev", List.of("clean"), true);
      Map<String, GraphNode> promoted = nodes(new CatalogFacts(catalogs, config, LastBuilds.read(warehouse), now));
      assertThat(promoted.get("transform:clean").status()).isEqualTo("FAILED");
      assertThat(promoted.get("transform:clean").details().get("last build"))
          .isEqualTo("FAILED, full, on branch dev, since promoted");
    }
  }

  private static TimedResult timed(String transform, TransformResult.Status status, Instant now) {
    return new TimedResult(new TransformResult(transform, "spark", status, false, "", List.of(), Duration.ofMillis(10),
        Optional.empty(), List.of(), List.of()), now.minusSeconds(5), now.minusSeconds(4));
  }

  private static Map<String, GraphNode> nodes(CatalogFacts facts) {
    Map<String, GraphNode> nodes = new java.util.HashMap<>();
    PipelineGraph.of(PIPELINE, facts).nodes().forEach(n -> nodes.put(n.id(), n));
    return nodes;
  }

  @Test
  void noWarehouseFolderIsCreatedForTheRecordOfLastBuilds() {
    Path none = dir.resolve("no-warehouse");
    Instant now = Instant.now();
    LastBuilds.record(none, List.of(new TimedResult(new TransformResult("clean", "spark",
        TransformResult.Status.SUCCEEDED, false, "", List.of(), Duration.ZERO, Optional.empty(), List.of(), List.of()),
        now, now)), TransformsConfig.embedded(none).masker());
    assertThat(none).doesNotExist();
    assertThat(LastBuilds.read(none)).isEmpty();
  }

  @Test
  void agesUseTheirLargestWholeUnit() {
    Instant now = Instant.parse("2026-01-10T12:00:00Z");
    CatalogFacts facts = new CatalogFacts(null, null, Map.of(), now);
    assertThat(facts.age(now.minusSeconds(5))).isEqualTo("5 s ago");
    assertThat(facts.age(now.minusSeconds(600))).isEqualTo("10 min ago");
    assertThat(facts.age(now.minusSeconds(3 * 3600))).isEqualTo("3 h ago");
    assertThat(facts.age(now.minusSeconds(4 * 86400))).isEqualTo("4 days ago");
  }
}
