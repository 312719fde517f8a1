package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Time travel to a moment or a snapshot an input does not have: the error names the input. */
public class TimeTravelErrorsTest extends SparkTestBase {

  static final String IN = "/Travel/in/rows";
  static final String OUT = "/Travel/out/copy";

  /** Reads its input as it was in 2001, long before the table existed. */
  public static class LongAgo {
    @Transform(name = "long-ago")
    public void copy(@TableInput(IN) TableTransformInput in, @TableOutput(OUT) TableTransformOutput out) {
      out.writeDataFrame(in.dataframeAsOf(Instant.parse("2001-01-01T00:00:00Z")));
    }
  }

  /** Reads a snapshot id its input never had. */
  public static class NoSuchSnapshot {
    @Transform(name = "no-such-snapshot")
    public void copy(@TableInput(IN) TableTransformInput in, @TableOutput(OUT) TableTransformOutput out) {
      out.writeDataFrame(in.dataframeAtSnapshot(42L));
    }
  }

  /** Reads its input as of now: the current snapshot. */
  public static class Now {
    @Transform(name = "now")
    public void copy(@TableInput(IN) TableTransformInput in, @TableOutput(OUT) TableTransformOutput out) {
      out.writeDataFrame(in.dataframeAsOf(System.currentTimeMillis()));
    }
  }

  @Test
  void aMomentBeforeTheHistoryNamesTheInputAndWhereItsHistoryStarts() {
    createTable(IN, "id BIGINT", "1", "2");
    long first = table(IN).history().get(0).snapshotId();

    BuildReport report = build(LongAgo.class);

    TransformResult result = only(report);
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.error().orElseThrow()).hasMessageContaining("Input /Travel/in/rows (" + id(IN)
        + ") has no snapshot at or before 2001-01-01T00:00:00Z to travel back to; its history starts at ")
        .hasMessageContaining("(snapshot " + first + ")");
    assertThat(report.format()).contains("Input /Travel/in/rows");
  }

  @Test
  void anUnknownSnapshotNamesTheInput() {
    createTable(IN, "id BIGINT", "1");
    TransformResult result = only(build(NoSuchSnapshot.class));
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.error().orElseThrow()).hasMessageContaining("Input /Travel/in/rows (" + id(IN)
        + ") has no snapshot 42 to read");
  }

  @Test
  void aMomentWithinTheHistoryReadsTheSnapshotCurrentThen() {
    createTable(IN, "id BIGINT", "1", "2");
    assertThat(only(build(Now.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(rows(OUT)).containsExactly("[1]", "[2]");
  }
}
