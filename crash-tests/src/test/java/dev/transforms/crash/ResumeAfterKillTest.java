package dev.transforms.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.crash.CrashTransforms.SingleChain;
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
 * A build of a two-transform chain killed with SIGKILL after the first transform published: the next
 * build skips the first (it is up to date) and runs only the second, and both outputs then hold every
 * input row; a build after that runs nothing.
 */
public class ResumeAfterKillTest {

  private static final Schema EVENTS = new Schema(
      Types.NestedField.optional(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "v", Types.StringType.get()));
  private static final int ROWS = 50;

  @TempDir Path dir;

  /**
   * Kills the chain's build after the first transform published: between the two transforms
   * ({@code publish.output#1}) or half-way through the second one's writes ({@code run.written#2}).
   */
  @ParameterizedTest
  @ValueSource(strings = {"publish.output#1", "run.written#2"})
  void theNextBuildRunsOnlyWhatTheKilledOneLeft(String point) {
    Path warehouse = dir.resolve("warehouse");
    List<Row> rows = new ArrayList<>();
    for (long id = 0; id < ROWS; id++) {
      rows.add(Row.of(id, "v" + id));
    }
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      w.createTable(CrashTransforms.EVENTS, EVENTS, rows.toArray(Row[]::new));
    }

    ChildBuild child = ChildBuild.start(warehouse, SingleChain.class, dir.resolve("child.err"),
        Map.of(CrashPoints.PROPERTY, point));
    ChildBuild.Ended ended = child.killAt(line -> line.startsWith(CrashPoints.MARKER));
    assertThat(ended.killed()).as("the build never reached " + point + ":\n" + ended.output() + child.errorTail())
        .isTrue();

    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      assertThat(w.rows(CrashTransforms.CHAIN_FIRST)).as("the first output, published before the kill")
          .containsExactlyInAnyOrderElementsOf(rows);
      assertThat(w.exists(CrashTransforms.CHAIN_SECOND)).as("the second output, never published").isFalse();

      BuildResult next = w.build(SingleChain.class).assertSucceeded();
      TransformResult first = next.transform("chain-first");
      assertThat(first.status()).as(first.reason()).isEqualTo(TransformResult.Status.UP_TO_DATE);
      assertThat(next.transform("chain-second").status()).isEqualTo(TransformResult.Status.SUCCEEDED);
      assertThat(w.rows(CrashTransforms.CHAIN_FIRST)).containsExactlyInAnyOrderElementsOf(rows);
      assertThat(w.rows(CrashTransforms.CHAIN_SECOND)).containsExactlyInAnyOrderElementsOf(rows);
      assertThat(w.table(CrashTransforms.CHAIN_FIRST).refs()).containsOnlyKeys("main");
      assertThat(w.table(CrashTransforms.CHAIN_SECOND).refs()).containsOnlyKeys("main");

      BuildResult after = w.build(SingleChain.class).assertSucceeded();
      assertThat(after.report().results()).extracting(TransformResult::status)
          .containsOnly(TransformResult.Status.UP_TO_DATE);
    }
  }
}
