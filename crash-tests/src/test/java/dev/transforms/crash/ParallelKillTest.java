package dev.transforms.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.crash.CrashTransforms.FourAtOnce;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.spi.CrashPoints;
import dev.transforms.testing.BuildResult;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A build running four transforms at once, killed with SIGKILL while all four run (each has started and
 * one has written half its rows), on new outputs and on existing ones: every output holds its old rows
 * (or does not exist) or its new ones, never a part, and the next build recovers each and publishes all
 * four, with no branch left behind.
 */
public class ParallelKillTest {

  private static final Schema EVENTS = new Schema(
      Types.NestedField.optional(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "v", Types.StringType.get()));
  private static final int ROWS = 60;

  @TempDir Path dir;

  private static List<Row> rows(int from, int to) {
    List<Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(Row.of(id, "v" + id));
    }
    return rows;
  }

  @ParameterizedTest(name = "outputs existed before: {0}")
  @ValueSource(booleans = {false, true})
  void everyOutputIsOldOrNewAfterTheKillAndTheNextBuildRecoversEach(boolean existing) {
    Path warehouse = dir.resolve("warehouse");
    List<Row> old = existing ? rows(0, ROWS) : List.of();
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      w.createTable(CrashTransforms.EVENTS, EVENTS, rows(0, ROWS).toArray(Row[]::new));
      if (existing) {
        w.build(FourAtOnce.class).assertSucceeded();
      }
      w.append(CrashTransforms.EVENTS, rows(ROWS, ROWS + 10).toArray(Row[]::new));
    }
    List<Row> all = rows(0, ROWS + 10);

    ChildBuild child = ChildBuild.start(warehouse, FourAtOnce.class, dir.resolve("child.err"),
        Map.of(CrashPoints.PROPERTY, "run.written#1", CrashChild.THREADS, "4"));
    ChildBuild.Ended ended = child.killAt(line -> line.startsWith(CrashPoints.MARKER));
    assertThat(ended.killed()).as("the build never reached run.written:\n" + ended.output() + child.errorTail())
        .isTrue();

    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      for (int k = 0; k < 4; k++) {
        String output = CrashTransforms.fourOut(k);
        List<Row> now = w.exists(output) ? w.rows(output) : List.of();
        assertThat(sorted(now)).as(output + " after the kill: its old rows or its new ones")
            .satisfiesAnyOf(r -> assertThat(r).isEqualTo(sorted(old)), r -> assertThat(r).isEqualTo(sorted(all)));
      }
      BuildResult next = w.build(FourAtOnce.class).assertSucceeded();
      assertThat(next.report().results()).extracting(TransformResult::status)
          .containsOnly(TransformResult.Status.SUCCEEDED);
      for (int k = 0; k < 4; k++) {
        String output = CrashTransforms.fourOut(k);
        assertThat(sorted(w.rows(output))).as(output).isEqualTo(sorted(all));
        assertThat(w.table(output).refs()).as(output).containsOnlyKeys("main");
      }
    }
  }

  private static List<String> sorted(List<Row> rows) {
    return rows.stream().map(Row::toString).sorted().toList();
  }
}
