package dev.transforms.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.internal.publish.StagingMarks;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two builds in two JVMs at once, meeting inside their methods: of one transform on a new output (one
 * publishes, the other is told of the conflict and leaves the winner's table alone), on an existing
 * output (one publishes, the other is told to build again), and of two transforms on a new warehouse.
 */
public class RacingBuildsTest {

  private static final Schema EVENTS = new Schema(
      Types.NestedField.optional(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "v", Types.StringType.get()));

  @TempDir Path dir;

  private void seed(Path warehouse, boolean build, Class<?> transform) {
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      w.createTable(CrashTransforms.EVENTS, EVENTS, Row.of(1L, "a"), Row.of(2L, "b"), Row.of(3L, "c"));
      if (build) {
        w.build(transform).assertSucceeded();
        w.append(CrashTransforms.EVENTS, Row.of(4L, "d"));
      }
    }
  }

  private List<ChildBuild.Ended> race(Path warehouse, Class<?> first, Class<?> second, boolean meet) {
    Map<String, String> properties = meet ? Map.of(RaceTransforms.BARRIER, dir.resolve("barrier-"
        + warehouse.getFileName()).toString()) : Map.of();
    ChildBuild a = ChildBuild.start(warehouse, first, dir.resolve(warehouse.getFileName() + "-a.err"), properties);
    ChildBuild b = ChildBuild.start(warehouse, second, dir.resolve(warehouse.getFileName() + "-b.err"), properties);
    return List.of(a.await(), b.await());
  }

  private static void assertOneWon(List<ChildBuild.Ended> ended, String loserSays) {
    assertThat(ended).as(ended.toString()).filteredOn(e -> e.code() == 0).hasSize(1);
    assertThat(ended).filteredOn(e -> e.code() != 0).singleElement()
        .satisfies(e -> assertThat(e.output()).contains("FAILED").contains(RaceTransforms.RACED).contains(loserSays));
  }

  private static void assertClean(Table table) {
    assertClean(table, false);
  }

  /**
   * No branch, lease or shape mark is left, and no data file, manifest or manifest list of the loser;
   * for a first build, not even its metadata file. (A commit that loses a race on an existing table
   * leaves the metadata file it could not swap in, as any Iceberg writer does: orphan-file maintenance
   * removes those.)
   */
  private static void assertClean(Table table, boolean firstBuild) {
    assertThat(table.refs()).containsOnlyKeys("main");
    java.nio.file.Path folder = java.nio.file.Path.of(java.net.URI.create(
        table.location().replaceFirst("^file:/+", "file:///")));
    java.util.Set<String> referenced = new java.util.HashSet<>();
    org.apache.iceberg.TableMetadata metadata = ((org.apache.iceberg.HasTableOperations) table).operations().current();
    referenced.add(name(metadata.metadataFileLocation()));
    metadata.previousFiles().forEach(f -> referenced.add(name(f.file())));
    for (org.apache.iceberg.Snapshot snapshot : table.snapshots()) {
      referenced.add(name(snapshot.manifestListLocation()));
      snapshot.allManifests(table.io()).forEach(m -> referenced.add(name(m.path())));
      snapshot.addedDataFiles(table.io()).forEach(f -> referenced.add(name(f.location())));
    }
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(folder)) {
      assertThat(files.filter(java.nio.file.Files::isRegularFile).map(f -> f.getFileName().toString())
          .filter(n -> !referenced.contains(n) && (firstBuild || !n.endsWith(".metadata.json"))).toList())
          .as("files under " + folder + " no snapshot references").isEmpty();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertThat(table.properties().keySet())
        .noneMatch(k -> k.startsWith(StagingMarks.LEASE_PREFIX) || k.startsWith(StagingMarks.SHAPE_PREFIX));
  }

  private static String name(String location) {
    return location.substring(location.lastIndexOf('/') + 1);
  }

  @Test
  void twoFirstBuildsOfASingleNodeTransform() {
    Path warehouse = dir.resolve("single-first");
    seed(warehouse, false, null);
    assertOneWon(race(warehouse, RaceTransforms.SingleRacer.class, RaceTransforms.SingleRacer.class, true),
        "another build");
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      assertThat(w.rows(RaceTransforms.RACED)).hasSize(3);
      assertClean(w.table(RaceTransforms.RACED), true);
    }
  }

  @Test
  void twoFirstBuildsOfASparkTransform() {
    Path warehouse = dir.resolve("spark-first");
    seed(warehouse, false, null);
    assertOneWon(race(warehouse, RaceTransforms.SparkRacer.class, RaceTransforms.SparkRacer.class, true),
        "another build");
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      assertThat(w.rows(RaceTransforms.RACED)).hasSize(3);
      assertClean(w.table(RaceTransforms.RACED), true);
    }
  }

  @Test
  void twoBuildsOfAnExistingOutput() {
    Path warehouse = dir.resolve("single-existing");
    seed(warehouse, true, RaceTransforms.SingleRacer.class);
    assertOneWon(race(warehouse, RaceTransforms.SingleRacer.class, RaceTransforms.SingleRacer.class, true),
        "Build again");
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      assertThat(w.rows(RaceTransforms.RACED)).hasSize(4);
      assertClean(w.table(RaceTransforms.RACED));
    }
  }

  @Test
  void twoBuildsChangingTheSchemaOfAnExistingOutput() {
    Path warehouse = dir.resolve("single-shape");
    seed(warehouse, true, RaceTransforms.SingleRacer.class);
    int schemas;
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      schemas = w.table(RaceTransforms.RACED).schemas().size();
    }
    assertOneWon(race(warehouse, RaceTransforms.ShapeRacer.class, RaceTransforms.ShapeRacer.class, true),
        "Build again");
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      Table table = w.table(RaceTransforms.RACED);
      assertThat(w.rows(RaceTransforms.RACED)).hasSize(4);
      // The winner's column, and nothing of the loser's: its schema was removed with its branch.
      assertThat(table.schema().columns()).hasSize(3);
      assertThat(table.schema().columns().get(2).name()).startsWith("c");
      assertThat(table.schemas()).hasSize(schemas + 1);
      assertClean(table);
    }
  }

  @Test
  void twoTransformsStartingOnANewWarehouse() {
    Path warehouse = dir.resolve("fresh");
    seed(warehouse, false, null);
    List<ChildBuild.Ended> ended = race(warehouse, RaceTransforms.Left.class, RaceTransforms.Right.class, false);
    assertThat(ended).as(ended.toString()).allMatch(e -> e.code() == 0);
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      assertThat(w.rows(RaceTransforms.LEFT)).hasSize(3);
      assertThat(w.rows(RaceTransforms.RIGHT)).hasSize(3);
    }
  }
}
