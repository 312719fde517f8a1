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
    assertThat(table.refs()).containsOnlyKeys("main");
    assertThat(table.properties().keySet())
        .noneMatch(k -> k.startsWith(StagingMarks.LEASE_PREFIX) || k.equals(StagingMarks.CREATED_BY));
  }

  @Test
  void twoFirstBuildsOfASingleNodeTransform() {
    Path warehouse = dir.resolve("single-first");
    seed(warehouse, false, null);
    assertOneWon(race(warehouse, RaceTransforms.SingleRacer.class, RaceTransforms.SingleRacer.class, true),
        "another build");
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      assertThat(w.rows(RaceTransforms.RACED)).hasSize(3);
      assertClean(w.table(RaceTransforms.RACED));
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
      assertClean(w.table(RaceTransforms.RACED));
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
