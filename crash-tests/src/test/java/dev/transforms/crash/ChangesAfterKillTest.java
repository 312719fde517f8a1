package dev.transforms.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.Incremental;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.spi.CrashPoints;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.singlenode.edits.ApplyChanges;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An incremental build over an edited merge-on-read input, applying its changes to SCD type 1 and type 2
 * dimensions, killed with SIGKILL half way: after the dimensions' staged edits were written and before
 * they were published ({@code run.written}), or while the second dimension published
 * ({@code publish.output#2}). The dimensions then hold what the last completed build published or the
 * new rows, never a mix; the next build applies the changes exactly once and equals a full rebuild.
 */
public class ChangesAfterKillTest {

  static final String CUSTOMERS = "/Crash/cdc/customers";
  static final String LATEST = "/Crash/cdc/latest";
  static final String HISTORY = "/Crash/cdc/history";
  static final String LATEST_FULL = "/Crash/cdc/latest-full";
  static final String HISTORY_FULL = "/Crash/cdc/history-full";

  static final Schema SCHEMA = new Schema(List.of(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "updated_at", Types.LongType.get())), Set.of(1));

  /** Both dimensions, incremental over the input's changes; a crash point after each apply. */
  public static class Dimensions {
    @Transform(name = "cdc-latest")
    @Incremental(changes = true)
    public void latest(SingleNodeTransformContext ctx, @TableInput(CUSTOMERS) IcebergInput in,
        @TableOutput(LATEST) IcebergOutput out) {
      ApplyChanges.scd1("id").sequenceBy("updated_at").applyTo(ctx, out, in.changes());
      CrashPoints.reached("run.written");
    }

    @Transform(name = "cdc-history")
    @Incremental(changes = true)
    public void history(SingleNodeTransformContext ctx, @TableInput(CUSTOMERS) IcebergInput in,
        @TableOutput(HISTORY) IcebergOutput out) {
      ApplyChanges.scd2("id").sequenceBy("updated_at").applyTo(ctx, out, in.changes());
      CrashPoints.reached("run.written");
    }
  }

  /** The same dimensions, always built in full from the input's whole history. */
  public static class InFull {
    @Transform(name = "cdc-latest-full")
    public void latest(SingleNodeTransformContext ctx, @TableInput(CUSTOMERS) IcebergInput in,
        @TableOutput(LATEST_FULL) IcebergOutput out) {
      ApplyChanges.scd1("id").sequenceBy("updated_at").applyTo(ctx, out, in.changes());
    }

    @Transform(name = "cdc-history-full")
    public void history(SingleNodeTransformContext ctx, @TableInput(CUSTOMERS) IcebergInput in,
        @TableOutput(HISTORY_FULL) IcebergOutput out) {
      ApplyChanges.scd2("id").sequenceBy("updated_at").applyTo(ctx, out, in.changes());
    }
  }

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"run.written", "publish.output#2"})
  void aKilledBuildOverEditsIsAppliedExactlyOnceByTheNext(String point) {
    Path warehouse = dir.resolve("warehouse");
    List<String> latestBefore;
    List<String> historyBefore;
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      List<Row> rows = new ArrayList<>();
      for (long id = 0; id < 40; id++) {
        rows.add(Row.of(id, "n" + id, 1L));
      }
      w.createTable(CUSTOMERS, SCHEMA, PartitionSpec.unpartitioned(),
          Map.of("format-version", "2", "write.delete.mode", "merge-on-read", "write.update.mode", "merge-on-read"),
          rows);
      w.build(Dimensions.class).assertSucceeded();
      latestBefore = sorted(w.rows(LATEST));
      historyBefore = sorted(w.rows(HISTORY));
      List<Record> upserts = new ArrayList<>();
      for (long id = 0; id < 40; id += 3) {
        upserts.add(customer(id, "renamed" + id, 2L));
      }
      upserts.add(customer(100L, "new", 2L));
      RowEdits.on(w.table(CUSTOMERS)).upsert(upserts, List.of("id"));
      RowEdits.on(w.table(CUSTOMERS)).delete(Expressions.in("id", 1L, 2L));
    }

    ChildBuild child = ChildBuild.start(warehouse, Dimensions.class, dir.resolve("child.err"),
        Map.of(CrashPoints.PROPERTY, point, CrashChild.THREADS, "1"));
    ChildBuild.Ended ended = child.killAt(line -> line.startsWith(CrashPoints.MARKER));
    assertThat(ended.killed()).as("the build never reached " + point + ":\n" + ended.output() + child.errorTail())
        .isTrue();

    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      List<String> latest = sorted(w.rows(LATEST));
      List<String> history = sorted(w.rows(HISTORY));
      w.build(InFull.class).assertSucceeded();
      List<String> latestAfter = sorted(w.rows(LATEST_FULL));
      List<String> historyAfter = sorted(w.rows(HISTORY_FULL));
      assertThat(latest).as("SCD1 after the kill: the old rows or the new ones").isIn(latestBefore, latestAfter);
      assertThat(history).as("SCD2 after the kill: the old rows or the new ones").isIn(historyBefore, historyAfter);

      w.build(Dimensions.class).assertSucceeded();
      assertThat(sorted(w.rows(LATEST))).as("SCD1 after the next build").isEqualTo(latestAfter);
      assertThat(sorted(w.rows(HISTORY))).as("SCD2 after the next build").isEqualTo(historyAfter);
      assertThat(w.table(LATEST).refs()).containsOnlyKeys("main");
      assertThat(w.table(HISTORY).refs()).containsOnlyKeys("main");
      for (TransformResult result : w.build(Dimensions.class).assertSucceeded().report().results()) {
        assertThat(result.status()).as(result.reason()).isEqualTo(TransformResult.Status.UP_TO_DATE);
      }
    }
  }

  private static Record customer(long id, String name, long updatedAt) {
    Record r = GenericRecord.create(SCHEMA);
    r.set(0, id);
    r.set(1, name);
    r.set(2, updatedAt);
    return r;
  }

  private static List<String> sorted(List<Row> rows) {
    return rows.stream().map(Row::toString).sorted().toList();
  }
}
