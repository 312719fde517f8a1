package dev.transforms.testing;

import static dev.transforms.testing.TransformsAssertions.assertThat;
import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** {@code warehouse.build(Selection)}: the forced and one-by-one builds docs/testing.md tells a test to make. */
@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
public class SelectionBuildTest {

  static final Schema IDS = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  TestWarehouse warehouse;

  /** Copies ids, counting its runs: what it does changes by a static field, not by its code or input. */
  public static class CountedCopy {
    static final AtomicInteger RUNS = new AtomicInteger();

    @Transform(name = "counted-copy")
    public void copy(@TableInput("/sel/in") IcebergInput in, @TableOutput("/sel/out") IcebergOutput out) {
      RUNS.incrementAndGet();
      out.writeTable(in.arrow());
    }
  }

  /** Two transforms that do not depend on each other, recording how many of them ran at once. */
  public static class Independent {
    static final AtomicInteger RUNNING = new AtomicInteger();
    static final AtomicInteger MOST = new AtomicInteger();

    @Transform(name = "left")
    public void left(@TableInput("/sel/in") IcebergInput in, @TableOutput("/sel/left") IcebergOutput out)
        throws InterruptedException {
      run(in, out);
    }

    @Transform(name = "right")
    public void right(@TableInput("/sel/in") IcebergInput in, @TableOutput("/sel/right") IcebergOutput out)
        throws InterruptedException {
      run(in, out);
    }

    private static void run(IcebergInput in, IcebergOutput out) throws InterruptedException {
      MOST.accumulateAndGet(RUNNING.incrementAndGet(), Math::max);
      try {
        Thread.sleep(200);
        out.writeTable(in.arrow());
      } finally {
        RUNNING.decrementAndGet();
      }
    }
  }

  @Test
  void aForcedSelectionRunsATransformThatIsUpToDate() {
    warehouse.createTable("/sel/in", IDS, Row.of(1), Row.of(2));
    CountedCopy.RUNS.set(0);
    warehouse.build(CountedCopy.class).assertSucceeded();
    assertThat(warehouse.build(CountedCopy.class)).only().isUpToDate();
    assertThat(CountedCopy.RUNS).hasValue(1);

    BuildResult forced = warehouse.build(Transforms.Selection.of(CountedCopy.class).force()).assertSucceeded();

    assertThat(forced.only().status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(CountedCopy.RUNS).hasValue(2);
    assertThatTable(warehouse.table("/sel/out")).containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));
  }

  @Test
  void aSelectionOfOneThreadRunsIndependentTransformsOneByOne() {
    warehouse.createTable("/sel/in", IDS, Row.of(1));
    Independent.RUNNING.set(0);
    Independent.MOST.set(0);

    BuildResult result = warehouse.build(Transforms.Selection.of(Independent.class).threads(1)).assertSucceeded();

    assertThat(result.report().results()).hasSize(2);
    assertThat(Independent.MOST).hasValue(1);
  }

  @Test
  void aSelectionOfSomeTransformsBuildsOnlyThose() {
    warehouse.createTable("/sel/in", IDS, Row.of(1));

    BuildResult result = warehouse.build(Transforms.Selection.of(Independent.class).only(java.util.List.of("left")));

    assertThat(result).succeeded().only().addedRows("/sel/left", 1);
    assertThat(warehouse.exists("/sel/right")).isFalse();
  }
}
