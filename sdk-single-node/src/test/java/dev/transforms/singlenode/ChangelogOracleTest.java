package dev.transforms.singlenode;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.TransformsException;
import dev.transforms.singlenode.Changelog.ChangeType;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.edits.RowEditsTables;
import dev.transforms.singlenode.internal.parquet.PagedColumnsRead;
import dev.transforms.singlenode.internal.plan.ReadPlanner;
import dev.transforms.singlenode.internal.plan.ReadStrategy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random edit sequences (appends, upserts, deletes, overwrites) on copy-on-write and merge-on-read
 * tables, format v2 and v3, position deletes, deletion vectors and equality deletes: after every
 * snapshot the changes {@link Changelog} reports equal those of an in-memory model, and so does the
 * changelog of the whole history at the end.
 */
class ChangelogOracleTest {

  private static final Schema SCHEMA = new Schema(List.of(
      required(1, "id", Types.LongType.get()),
      optional(2, "v", Types.StringType.get()),
      optional(3, "n", Types.IntegerType.get())), Set.of(1));

  enum Mode {
    COPY_ON_WRITE_V2(2, false, false, false),
    MERGE_ON_READ_V2(2, true, false, false),
    MERGE_ON_READ_V3_DELETION_VECTORS(3, true, false, true),
    MERGE_ON_READ_V2_EQUALITY(2, true, true, false),
    COPY_ON_WRITE_V3(3, false, false, true);

    final int formatVersion;
    final boolean mergeOnRead;
    final boolean equality;
    final boolean bucketed;

    Mode(int formatVersion, boolean mergeOnRead, boolean equality, boolean bucketed) {
      this.formatVersion = formatVersion;
      this.mergeOnRead = mergeOnRead;
      this.equality = equality;
      this.bucketed = bucketed;
    }
  }

  /** Every mode, with the data files read natively where the page decoder takes them, and by the engine only. */
  static Stream<Arguments> modesAndReaders() {
    return Arrays.stream(Mode.values()).flatMap(mode -> Stream.of(Arguments.of(mode, false), Arguments.of(mode, true)));
  }

  @ParameterizedTest(name = "{0}, engine only: {1}")
  @MethodSource("modesAndReaders")
  void changesEqualTheModelAfterEveryEdit(Mode mode, boolean engineOnly, @TempDir Path dir) throws Exception {
    long nativeReads = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
    try (AutoCloseable forced = engineOnly ? pageDecoderOff() : () -> { }) {
      changesEqualTheModel(mode, dir);
    }
    long read = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER) - nativeReads;
    if (engineOnly) {
      assertThat(read).as("data files the page decoder read").isZero();
    } else {
      assertThat(read).as("data files the page decoder read").isPositive();
    }
  }

  /**
   * Turns the page decoder off by its switch, which the standard planner's page decoder reads (a change
   * log reads through the standard planner), until closed.
   */
  static AutoCloseable pageDecoderOff() {
    System.setProperty(PagedColumnsRead.SWITCH, "false");
    return () -> System.clearProperty(PagedColumnsRead.SWITCH);
  }

  private void changesEqualTheModel(Mode mode, Path dir) {
    Table table = RowEditsTables.create(dir, "changes", SCHEMA,
        mode.bucketed ? PartitionSpec.builderFor(SCHEMA).bucket("id", 3).build() : PartitionSpec.unpartitioned(),
        mode.formatVersion, mode.mergeOnRead,
        mode.equality ? Map.of(RowEdits.DELETE_KIND_PROPERTY, "equality") : Map.of());
    Random random = new Random(31L * mode.ordinal() + 7);
    Map<Long, List<Object>> model = new TreeMap<>();
    List<Expected> history = new ArrayList<>();
    long nextId = 0;
    for (int step = 0; step < 14; step++) {
      Map<Long, List<Object>> before = new TreeMap<>(model);
      Long previous = table.currentSnapshot() == null ? null : table.currentSnapshot().snapshotId();
      int choice = step < 2 ? 0 : random.nextInt(4);
      String what;
      RowEdits edits = RowEdits.on(table);
      switch (choice) {
        case 0 -> {
          List<Record> rows = new ArrayList<>();
          for (int i = 0; i < 30 + random.nextInt(20); i++) {
            rows.add(row(nextId++, "v" + random.nextInt(5), random.nextInt(3)));
          }
          edits.append(rows);
          rows.forEach(r -> model.put((Long) r.get(0), values(r)));
          what = "append";
        }
        case 1 -> {
          List<Record> rows = new ArrayList<>();
          for (long id : pick(model, random, 8)) {
            Record r = random.nextInt(4) == 0 ? record(model.get(id)) : row(id, "u" + random.nextInt(3), step);
            rows.add(r);
          }
          for (int i = 0; i < 3; i++) {
            rows.add(row(nextId++, "new", step));
          }
          edits.upsert(rows, List.of("id"));
          rows.forEach(r -> model.put((Long) r.get(0), values(r)));
          what = "upsert";
        }
        case 2 -> {
          List<Long> ids = pick(model, random, 6);
          edits.delete(Expressions.in("id", ids.toArray()));
          ids.forEach(model::remove);
          what = "delete " + ids;
        }
        default -> {
          List<Long> ids = pick(model, random, 5);
          Expression filter = Expressions.in("id", ids.toArray());
          List<Record> rows = new ArrayList<>();
          for (long id : ids.subList(0, ids.size() / 2)) {
            rows.add(row(id, "o" + step, step));
          }
          edits.overwrite(rows, filter);
          ids.forEach(model::remove);
          rows.forEach(r -> model.put((Long) r.get(0), values(r)));
          what = "overwrite " + ids;
        }
      }
      table.refresh();
      long current = table.currentSnapshot().snapshotId();
      if (previous != null && previous == current) {
        continue;  // nothing changed, no snapshot
      }
      Expected expected = Expected.between(before, model, current);
      history.add(expected);
      Changelog changelog = Changelog.of(table).between(
          previous == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(previous), current)
          .identifiedBy("id");
      assertThat(describe(changelog.changes()))
          .as("%s, step %d (%s): changes of snapshot %d", mode, step, what, current)
          .containsExactlyInAnyOrderElementsOf(expected.describe(0));
    }
    List<String> whole = new ArrayList<>();
    for (int i = 0; i < history.size(); i++) {
      whole.addAll(history.get(i).describe(i));
    }
    assertThat(describe(Changelog.of(table).identifiedBy("id").changes()))
        .as("%s: the changelog of the whole history", mode)
        .containsExactlyInAnyOrderElementsOf(whole);
  }

  @Test
  void aStartThatIsNoAncestorIsRefusedByName(@TempDir Path dir) {
    Table table = RowEditsTables.create(dir, "rolled", SCHEMA, PartitionSpec.unpartitioned(), 2, true, Map.of());
    RowEdits.on(table).append(List.of(row(1, "a", 1)));
    long first = table.currentSnapshot().snapshotId();
    RowEdits.on(table).append(List.of(row(2, "b", 2)));
    long second = table.currentSnapshot().snapshotId();
    table.manageSnapshots().rollbackTo(first).commit();
    RowEdits.on(table).append(List.of(row(3, "c", 3)));
    table.refresh();
    long third = table.currentSnapshot().snapshotId();
    assertThatThrownBy(() -> Changelog.of(table).between(java.util.OptionalLong.of(second), third).changes())
        .isInstanceOf(TransformsException.class)
        .hasMessageContaining(table.name())
        .hasMessageContaining("snapshot " + second)
        .hasMessageContaining("not an ancestor");
    assertThatThrownBy(() -> Changelog.of(table).between(java.util.OptionalLong.of(424242L), third).changes())
        .isInstanceOf(TransformsException.class)
        .hasMessageContaining("424242")
        .hasMessageContaining("no longer exists");
  }

  @Test
  void aCompactionChangesNoRow(@TempDir Path dir) {
    Table table = RowEditsTables.create(dir, "compacted", SCHEMA, PartitionSpec.unpartitioned(), 2, true, Map.of());
    RowEdits.on(table).append(List.of(row(1, "a", 1), row(2, "b", 2)));
    RowEdits.on(table).append(List.of(row(3, "c", 3)));
    RowEdits.on(table).delete(Expressions.equal("id", 2L));
    table.refresh();
    long before = table.currentSnapshot().snapshotId();
    dev.transforms.singlenode.edits.Compaction.plan(table).run();
    table.refresh();
    assertThat(table.currentSnapshot().operation()).isEqualTo("replace");
    assertThat(Changelog.of(table).between(java.util.OptionalLong.of(before), table.currentSnapshot().snapshotId())
        .changes()).isEmpty();
  }

  /** The changes one snapshot made, from the model before and after it. */
  private record Expected(Map<Long, List<Object>> before, Map<Long, List<Object>> after, long snapshotId) {
    static Expected between(Map<Long, List<Object>> before, Map<Long, List<Object>> after, long snapshotId) {
      return new Expected(new HashMap<>(before), new HashMap<>(after), snapshotId);
    }

    List<String> describe(int ordinal) {
      List<String> out = new ArrayList<>();
      Set<Long> keys = new java.util.TreeSet<>(before.keySet());
      keys.addAll(after.keySet());
      for (Long key : keys) {
        List<Object> was = before.get(key);
        List<Object> is = after.get(key);
        if (Objects.equals(was, is)) {
          continue;
        }
        if (was != null && is != null) {
          out.add(line(ChangeType.UPDATE_BEFORE, ordinal, snapshotId, was));
          out.add(line(ChangeType.UPDATE_AFTER, ordinal, snapshotId, is));
        } else if (was != null) {
          out.add(line(ChangeType.DELETE, ordinal, snapshotId, was));
        } else {
          out.add(line(ChangeType.INSERT, ordinal, snapshotId, is));
        }
      }
      return out;
    }
  }

  private static List<String> describe(List<Changelog.Change> changes) {
    return changes.stream().map(c -> line(c.type(), c.ordinal(), c.snapshotId(), values(c.row()))).toList();
  }

  private static String line(ChangeType type, int ordinal, long snapshotId, List<Object> values) {
    return type + " #" + ordinal + " @" + snapshotId + " " + values;
  }

  private static List<Long> pick(Map<Long, List<Object>> model, Random random, int most) {
    List<Long> keys = new ArrayList<>(model.keySet());
    java.util.Collections.shuffle(keys, random);
    return new ArrayList<>(keys.subList(0, Math.min(most, keys.size())));
  }

  private static Record row(long id, String v, int n) {
    Record r = GenericRecord.create(SCHEMA);
    r.set(0, id);
    r.set(1, v);
    r.set(2, n);
    return r;
  }

  private static Record record(List<Object> values) {
    return row((Long) values.get(0), (String) values.get(1), (Integer) values.get(2));
  }

  private static List<Object> values(Record r) {
    return java.util.Arrays.asList(r.get(0), r.get(1), r.get(2));
  }
}
