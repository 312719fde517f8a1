package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.TransformResult;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.singlenode.edits.ApplyChanges;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The incremental dimensions of {@link CustomerDimensions}, built after every random edit of their
 * source (upserts, deletes, late and repeated changes), equal at every step the same dimensions
 * rebuilt in full from the source's whole history, and so do those of {@link SparkCustomerDimensions};
 * every build after the first is incremental.
 */
@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
public class CustomerDimensionsTest {

  static final Schema CUSTOMERS = new Schema(List.of(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "tier", Types.StringType.get()),
      Types.NestedField.optional(4, "updated_at", Types.LongType.get())), Set.of(1));

  static final String LATEST_FULL = "/Examples/cdc/customers-latest-full";
  static final String HISTORY_FULL = "/Examples/cdc/customers-history-full";
  static final String UNSEQUENCED = "/Examples/cdc/customers-latest-unsequenced";
  static final String UNSEQUENCED_FULL = "/Examples/cdc/customers-latest-unsequenced-full";

  /** Type 1 without a sequence column: the last change in commit order wins, no row is read first. */
  public static class Unsequenced {
    @Transform
    @dev.transforms.api.Incremental(changes = true)
    public void latestUnsequenced(SingleNodeTransformContext ctx,
        @TableInput(CustomerDimensions.CUSTOMERS) IcebergInput in, @TableOutput(UNSEQUENCED) IcebergOutput out) {
      ApplyChanges.scd1("id").applyTo(ctx, out, in.changes());
    }
  }

  /** The same dimensions, without {@code @Incremental}: every build reads the whole history. */
  public static class RebuiltInFull {
    @Transform
    public void latestInFull(SingleNodeTransformContext ctx, @TableInput(CustomerDimensions.CUSTOMERS) IcebergInput in,
        @TableOutput(LATEST_FULL) IcebergOutput out) {
      ApplyChanges.scd1("id").sequenceBy("updated_at").applyTo(ctx, out, in.changes());
    }

    @Transform
    public void latestUnsequencedInFull(SingleNodeTransformContext ctx,
        @TableInput(CustomerDimensions.CUSTOMERS) IcebergInput in, @TableOutput(UNSEQUENCED_FULL) IcebergOutput out) {
      ApplyChanges.scd1("id").applyTo(ctx, out, in.changes());
    }

    @Transform
    public void historyInFull(SingleNodeTransformContext ctx, @TableInput(CustomerDimensions.CUSTOMERS) IcebergInput in,
        @TableOutput(HISTORY_FULL) IcebergOutput out) {
      ApplyChanges.scd2("id").sequenceBy("updated_at").applyTo(ctx, out, in.changes());
    }
  }

  TestWarehouse warehouse;

  @ParameterizedTest
  @ValueSource(strings = {"merge-on-read", "copy-on-write"})
  void incrementalDimensionsEqualAFullRebuildAfterEveryEdit(String mode) {
    // Spark's dimensions too, on the merge-on-read source only, after steps 0, 5 and 9 (so that each
    // incremental build reads four or five edits at once): each Spark build costs seconds.
    boolean spark = mode.equals("merge-on-read");
    Table source = warehouse.createTable(CustomerDimensions.CUSTOMERS, CUSTOMERS, PartitionSpec.unpartitioned(),
        Map.of("write.delete.mode", mode, "write.update.mode", mode, "write.merge.mode", mode, "format-version", "2"),
        List.of(Row.of(1L, "Ada", "gold", 1L), Row.of(2L, "Bo", "silver", 1L), Row.of(3L, "Cy", "bronze", 1L)));
    Random random = new Random(mode.hashCode());
    long nextId = 4;
    for (int step = 0; step < 10; step++) {
      TransformResult latest = build("latest");
      TransformResult history = build("history");
      if (step > 0) {
        assertThat(latest.incremental()).as("step %d: %s", step, latest.reason()).isTrue();
        assertThat(history.incremental()).as("step %d: %s", step, history.reason()).isTrue();
      }
      TransformResult unsequenced = warehouse.build(List.of(Unsequenced.class)).assertSucceeded().only();
      assertThat(unsequenced.incremental()).as("step %d: %s", step, unsequenced.reason()).isEqualTo(step > 0);
      warehouse.build(List.of(RebuiltInFull.class)).assertSucceeded();
      if (spark && (step % 5 == 0 || step == 9)) {
        for (TransformResult result : warehouse.build(List.of(SparkCustomerDimensions.class)).assertSucceeded()
            .report().results()) {
          assertThat(result.incremental()).as("step %d, %s: %s", step, result.transform(), result.reason())
              .isEqualTo(step > 0);
        }
        assertThat(sorted(warehouse.rows(SparkCustomerDimensions.LATEST))).as("Spark SCD1 after step %d", step)
            .isEqualTo(sorted(warehouse.rows(LATEST_FULL)));
        assertThat(sorted(warehouse.rows(SparkCustomerDimensions.HISTORY))).as("Spark SCD2 after step %d", step)
            .isEqualTo(sorted(warehouse.rows(HISTORY_FULL)));
      }
      assertThat(sorted(warehouse.rows(UNSEQUENCED))).as("SCD1 without a sequence after step %d", step)
          .isEqualTo(sorted(warehouse.rows(UNSEQUENCED_FULL)));
      assertThat(sorted(warehouse.rows(CustomerDimensions.LATEST))).as("SCD1 after step %d", step)
          .isEqualTo(sorted(warehouse.rows(LATEST_FULL)));
      assertThat(sorted(warehouse.rows(CustomerDimensions.HISTORY))).as("SCD2 after step %d", step)
          .isEqualTo(sorted(warehouse.rows(HISTORY_FULL)));

      source = warehouse.table(CustomerDimensions.CUSTOMERS);
      List<Long> ids = ids(source);
      Collections.shuffle(ids, random);
      long at = step + 2;
      List<Record> upserts = new ArrayList<>();
      for (long id : ids.subList(0, Math.min(2, ids.size()))) {
        // now and then a late change: older than the row it would replace, so it is ignored
        upserts.add(customer(id, "name" + step, "tier" + random.nextInt(3), random.nextInt(5) == 0 ? 0L : at));
      }
      upserts.add(customer(nextId++, "new" + step, "bronze", at));
      RowEdits.on(source).upsert(upserts, List.of("id"));
      if (ids.size() > 3 && random.nextBoolean()) {
        RowEdits.on(warehouse.table(CustomerDimensions.CUSTOMERS)).delete(Expressions.equal("id", ids.get(3)));
      }
    }
    assertThat(warehouse.rows(CustomerDimensions.HISTORY)).hasSizeGreaterThan(warehouse.rows(CustomerDimensions.LATEST)
        .size());
  }

  @org.junit.jupiter.api.Test
  void anExpiredSnapshotMakesTheNextBuildFullAndSaysSo() {
    warehouse.createTable(CustomerDimensions.CUSTOMERS, CUSTOMERS, PartitionSpec.unpartitioned(),
        Map.of("write.delete.mode", "merge-on-read", "format-version", "2"),
        List.of(Row.of(1L, "Ada", "gold", 1L), Row.of(2L, "Bo", "silver", 1L)));
    build("latest");
    RowEdits.on(warehouse.table(CustomerDimensions.CUSTOMERS)).delete(Expressions.equal("id", 1L));
    RowEdits.on(warehouse.table(CustomerDimensions.CUSTOMERS)).upsert(List.of(customer(2L, "Bo", "gold", 2L)),
        List.of("id"));
    Table source = warehouse.table(CustomerDimensions.CUSTOMERS);
    source.expireSnapshots().expireOlderThan(System.currentTimeMillis() + 1).retainLast(1).commit();

    TransformResult latest = build("latest");
    assertThat(latest.incremental()).isFalse();
    assertThat(latest.reason()).contains("no longer exists (expired)");
    assertThat(sorted(warehouse.rows(CustomerDimensions.LATEST))).containsExactly(
        Row.of(2L, "Bo", "gold", 2L).toString());
  }

  /**
   * Routine maintenance of the source, as {@code transforms maintain --compact} then {@code --expire}
   * do: the only snapshot left is the compaction's {@code replace}. The next build is full and must
   * read that snapshot as inserting every row it holds, on both engines.
   */
  @org.junit.jupiter.api.Test
  void afterCompactionAndExpiryTheFullBuildKeepsEveryRow() {
    warehouse.createTable(CustomerDimensions.CUSTOMERS, CUSTOMERS, PartitionSpec.unpartitioned(),
        Map.of("write.delete.mode", "merge-on-read", "write.update.mode", "merge-on-read",
            "write.merge.mode", "merge-on-read", "format-version", "2"),
        List.of(Row.of(1L, "Ada", "gold", 1L), Row.of(2L, "Bo", "silver", 1L), Row.of(3L, "Cy", "bronze", 1L)));
    build("latest");
    build("history");
    RowEdits.on(warehouse.table(CustomerDimensions.CUSTOMERS)).upsert(List.of(customer(2L, "Bo", "gold", 2L),
        customer(4L, "Di", "silver", 2L)), List.of("id"));
    RowEdits.on(warehouse.table(CustomerDimensions.CUSTOMERS)).delete(Expressions.equal("id", 3L));
    warehouse.build(List.of(SparkCustomerDimensions.class)).assertSucceeded();
    Table source = warehouse.table(CustomerDimensions.CUSTOMERS);
    dev.transforms.singlenode.edits.Compaction.plan(source).run();
    source.refresh();
    assertThat(source.currentSnapshot().operation()).isEqualTo("replace");
    source.expireSnapshots().expireOlderThan(System.currentTimeMillis() + 1).retainLast(1).commit();
    assertThat(source.snapshots()).hasSize(1);

    List<String> expected = List.of(Row.of(1L, "Ada", "gold", 1L).toString(), Row.of(2L, "Bo", "gold", 2L).toString(),
        Row.of(4L, "Di", "silver", 2L).toString());
    TransformResult latest = build("latest");
    TransformResult history = build("history");
    assertThat(latest.incremental()).isFalse();
    assertThat(latest.reason()).contains("no longer exists (expired)");
    assertThat(history.incremental()).isFalse();
    assertThat(sorted(warehouse.rows(CustomerDimensions.LATEST))).isEqualTo(expected);
    assertThat(warehouse.rows(CustomerDimensions.HISTORY)).hasSize(3);
    warehouse.build(List.of(SparkCustomerDimensions.class)).assertSucceeded();
    assertThat(sorted(warehouse.rows(SparkCustomerDimensions.LATEST))).isEqualTo(expected);
    assertThat(warehouse.rows(SparkCustomerDimensions.HISTORY)).hasSize(3);
  }

  @org.junit.jupiter.api.Test
  void withoutChangesAnEditedInputMakesTheBuildFull() {
    warehouse.createTable(CustomerDimensions.CUSTOMERS, CUSTOMERS, Row.of(1L, "Ada", "gold", 1L));
    assertThat(warehouse.build(List.of(AddedRowsOnly.class)).assertSucceeded().only().incremental()).isFalse();
    RowEdits.on(warehouse.table(CustomerDimensions.CUSTOMERS)).delete(Expressions.equal("id", 1L));
    TransformResult again = warehouse.build(List.of(AddedRowsOnly.class)).assertSucceeded().only();
    assertThat(again.incremental()).isFalse();
    assertThat(again.reason()).contains("changed by 'delete'").contains("not only by appends");
  }

  /** An incremental transform that reads added rows only. */
  public static class AddedRowsOnly {
    @Transform
    @dev.transforms.api.Incremental
    public void copy(@TableInput(CustomerDimensions.CUSTOMERS) IcebergInput in,
        @TableOutput("/Examples/cdc/customers-copy") IcebergOutput out) {
      out.writeTable(in.addedRows());
    }
  }

  private TransformResult build(String name) {
    return warehouse.build(List.of(CustomerDimensions.class), "CustomerDimensions." + name).assertSucceeded()
        .transform("CustomerDimensions." + name);
  }

  private static List<Long> ids(Table table) {
    List<Long> ids = new ArrayList<>();
    try (var rows = org.apache.iceberg.data.IcebergGenerics.read(table).select("id").build()) {
      rows.forEach(r -> ids.add((Long) r.getField("id")));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Collections.sort(ids);
    return ids;
  }

  private static Record customer(long id, String name, String tier, long updatedAt) {
    Record r = GenericRecord.create(CUSTOMERS);
    r.set(0, id);
    r.set(1, name);
    r.set(2, tier);
    r.set(3, updatedAt);
    return r;
  }

  private static List<String> sorted(List<Row> rows) {
    return rows.stream().map(Row::toString).sorted().toList();
  }
}
