package dev.transforms.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.crash.CrashTransforms.TwoOutputs;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.spi.CrashPoints;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Branch builds and promote killed with SIGKILL ({@code docs/branches.md}, what a crash leaves): a killed
 * branch build of a transform with two outputs leaves {@code main} of both exactly as it was, and the next
 * branch build completes the branch. A promote of the two outputs (one embedded catalog, so one database
 * transaction) is all or nothing: killed with every row swapped but not committed it promoted neither, and
 * promoting again promotes both; killed right after the commit it promoted both.
 */
public class BranchKillTest {

  private static final Schema EVENTS = new Schema(
      Types.NestedField.optional(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "v", Types.StringType.get()));

  @TempDir Path dir;

  private static Row[] rows(int from, int to) {
    List<Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(Row.of(id, "v" + id));
    }
    return rows.toArray(Row[]::new);
  }

  /** Builds the two outputs on main from rows 0-49, then adds rows 50-59 to the input's main. */
  private Path warehouseWithNewRows() {
    Path warehouse = dir.resolve("warehouse");
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      w.createTable(CrashTransforms.EVENTS, EVENTS, rows(0, 50));
      w.build(TwoOutputs.class).assertSucceeded();
      w.append(CrashTransforms.EVENTS, rows(50, 60));
    }
    return warehouse;
  }

  private ChildBuild.Ended killed(Path warehouse, String point, Map<String, String> properties) {
    Map<String, String> all = new java.util.HashMap<>(properties);
    all.put(CrashPoints.PROPERTY, point);
    ChildBuild child = ChildBuild.start(warehouse, TwoOutputs.class, dir.resolve("child.err"), all);
    ChildBuild.Ended ended = child.killAt(line -> line.startsWith(CrashPoints.MARKER));
    assertThat(ended.killed()).as("the child never reached " + point + ":\n" + ended.output() + child.errorTail())
        .isTrue();
    return ended;
  }

  @ParameterizedTest
  @ValueSource(strings = {"stage.branch#2", "run.written", "run.returned", "publish.output#1"})
  void aKilledBranchBuildLeavesMainAsItWasAndTheNextOneCompletesTheBranch(String point) {
    Path warehouse = warehouseWithNewRows();
    long first;
    long second;
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      first = w.table(CrashTransforms.FIRST_OF_TWO).currentSnapshot().snapshotId();
      second = w.table(CrashTransforms.SECOND_OF_TWO).currentSnapshot().snapshotId();
    }

    killed(warehouse, point, Map.of(CrashChild.BRANCH, "dev"));

    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      for (String output : List.of(CrashTransforms.FIRST_OF_TWO, CrashTransforms.SECOND_OF_TWO)) {
        assertThat(w.rows(output)).as("main of " + output + " after the kill").containsExactlyInAnyOrder(rows(0, 50));
      }
      assertThat(w.table(CrashTransforms.FIRST_OF_TWO).currentSnapshot().snapshotId()).isEqualTo(first);
      assertThat(w.table(CrashTransforms.SECOND_OF_TWO).currentSnapshot().snapshotId()).isEqualTo(second);

      w.build(Transforms.Selection.of(TwoOutputs.class).branch("dev")).assertSucceeded();

      for (String output : List.of(CrashTransforms.FIRST_OF_TWO, CrashTransforms.SECOND_OF_TWO)) {
        assertThat(w.rows(output, "dev")).as("branch dev of " + output).containsExactlyInAnyOrder(rows(0, 60));
        assertThat(w.rows(output)).as("main of " + output).containsExactlyInAnyOrder(rows(0, 50));
        assertThat(w.table(output).refs()).as("refs of " + output).containsOnlyKeys("main", "dev");
      }
    }
  }

  /** Builds the two outputs on branch dev, then kills a promote of dev at a point. */
  private Path promoteKilledAt(String point) {
    Path warehouse = warehouseWithNewRows();
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      w.build(Transforms.Selection.of(TwoOutputs.class).branch("dev")).assertSucceeded();
    }
    killed(warehouse, point, Map.of(CrashChild.PROMOTE, "dev"));
    return warehouse;
  }

  @Test
  void aPromoteKilledInsideItsOneTransactionPromotesNothingAndPromotingAgainDoesAll() {
    Path warehouse = promoteKilledAt("promote.rows");

    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      for (String output : List.of(CrashTransforms.FIRST_OF_TWO, CrashTransforms.SECOND_OF_TWO)) {
        assertThat(w.rows(output)).as("main of " + output + " after the kill").containsExactlyInAnyOrder(rows(0, 50));
        assertThat(w.table(output).refs()).as("refs of " + output).containsOnlyKeys("main", "dev");
      }

      assertThat(w.promote(Transforms.Selection.of(TwoOutputs.class), "dev"))
          .containsExactlyInAnyOrder(CrashTransforms.FIRST_OF_TWO, CrashTransforms.SECOND_OF_TWO);

      for (String output : List.of(CrashTransforms.FIRST_OF_TWO, CrashTransforms.SECOND_OF_TWO)) {
        assertThat(w.rows(output)).as("main of " + output).containsExactlyInAnyOrder(rows(0, 60));
        assertThat(w.table(output).refs()).as("refs of " + output).containsOnlyKeys("main");
      }
      assertThat(w.build(TwoOutputs.class).assertSucceeded().only().status())
          .isEqualTo(TransformResult.Status.UP_TO_DATE);
    }
  }

  @Test
  void aPromoteKilledAfterItsOneTransactionHasPromotedEveryOutput() {
    Path warehouse = promoteKilledAt("promote.together");

    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      for (String output : List.of(CrashTransforms.FIRST_OF_TWO, CrashTransforms.SECOND_OF_TWO)) {
        assertThat(w.rows(output)).as("main of " + output).containsExactlyInAnyOrder(rows(0, 60));
        assertThat(w.table(output).refs()).as("refs of " + output).containsOnlyKeys("main");
      }
      assertThat(w.promote(Transforms.Selection.of(TwoOutputs.class), "dev")).isEmpty();
      assertThat(w.build(TwoOutputs.class).assertSucceeded().only().status())
          .isEqualTo(TransformResult.Status.UP_TO_DATE);
    }
  }
}
