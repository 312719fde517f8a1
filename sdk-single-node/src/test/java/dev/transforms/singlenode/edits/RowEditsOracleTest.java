package dev.transforms.singlenode.edits;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The oracle: random sequences of appends, upserts, deletes and overwrites, applied both to a real
 * table and to an in-memory map from id to row; after every step the table, read with all its
 * deletes applied, must equal the map, and every returned count must equal the model's.
 */
class RowEditsOracleTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              required(1, "id", Types.LongType.get()),
              optional(2, "name", Types.StringType.get()),
              optional(3, "day", Types.DateType.get()),
              optional(4, "score", Types.DoubleType.get()),
              optional(5, "amount", Types.DecimalType.of(10, 2)),
              optional(6, "flag", Types.BooleanType.get()),
              optional(7, "ts", Types.TimestampType.withoutZone())),
          Set.of(1));

  /** Steps per run; equality-delete runs take fewer, as reading them back is slower. */
  private static final int STEPS = 20;

  private static final int EQUALITY_STEPS = 12;
  private static final LocalDate DAY0 = LocalDate.of(2024, 1, 1);
  private static final LocalDateTime TS0 = LocalDateTime.of(2024, 1, 1, 0, 0);

  /** Write mode, format version, partitioning and delete kind of one oracle run. */
  enum Mode {
    COPY_ON_WRITE_V2(2, false, false, "none"),
    MERGE_ON_READ_V2(2, true, false, "none"),
    COPY_ON_WRITE_V3(3, false, false, "day"),
    MERGE_ON_READ_V3(3, true, false, "bucket"),
    MERGE_ON_READ_V2_EQUALITY(2, true, true, "none"),
    MERGE_ON_READ_V3_EQUALITY(3, true, true, "flag");

    private final int formatVersion;
    private final boolean mergeOnRead;
    private final boolean equality;
    private final String partitioning;

    Mode(int formatVersion, boolean mergeOnRead, boolean equality, String partitioning) {
      this.formatVersion = formatVersion;
      this.mergeOnRead = mergeOnRead;
      this.equality = equality;
      this.partitioning = partitioning;
    }

    PartitionSpec spec() {
      PartitionSpec.Builder builder = PartitionSpec.builderFor(SCHEMA);
      switch (partitioning) {
        case "bucket":
          return builder.bucket("id", 2).build();
        case "day":
          return builder.day("day").build();
        case "flag":
          return builder.identity("flag").build();
        default:
          return PartitionSpec.unpartitioned();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void randomEditsMatchTheModel(Mode mode, @TempDir Path dir) {
    Table table =
        RowEditsTables.create(
            dir,
            "oracle",
            SCHEMA,
            mode.spec(),
            mode.formatVersion,
            mode.mergeOnRead,
            mode.equality ? Map.of(RowEdits.DELETE_KIND_PROPERTY, "equality") : Map.of());
    new Run(table, new Random(20240101L + mode.ordinal()))
        .go(mode.equality ? EQUALITY_STEPS : STEPS);
  }

  /** One seeded run: the table, the model and the random choices. */
  private static final class Run {
    private final Table table;
    private final RowEdits edits;
    private final Random random;
    private final Map<Long, List<Object>> model = new TreeMap<>();
    private long nextId = 0;

    Run(Table table, Random random) {
      this.table = table;
      this.edits = RowEdits.on(table);
      this.random = random;
    }

    void go(int steps) {
      for (int i = 0; i < 3; i += 1) {
        append(20 + random.nextInt(20));
      }
      check("initial appends");

      for (int step = 0; step < steps; step += 1) {
        int choice = random.nextInt(100);
        String what;
        if (choice < 10) {
          what = "append";
          append(1 + random.nextInt(10));
        } else if (choice < 55) {
          what = upsert();
        } else if (choice < 82) {
          what = delete();
        } else {
          what = overwrite();
        }
        check("step " + step + ": " + what);
      }
    }

    private void append(int count) {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < count; i += 1) {
        rows.add(randomRow(nextId++));
      }
      assertThat(edits.append(records(rows))).isEqualTo(count);
      rows.forEach(row -> model.put((Long) row.get(0), row));
    }

    private String upsert() {
      int count = 1 + random.nextInt(25);
      List<Long> existing = new ArrayList<>(model.keySet());
      Set<Long> used = new HashSet<>();
      List<List<Object>> source = new ArrayList<>();
      for (int i = 0; i < count; i += 1) {
        List<Object> row;
        if (!existing.isEmpty() && random.nextBoolean()) {
          long id = existing.get(random.nextInt(existing.size()));
          if (!used.add(id)) {
            continue;
          }
          row = random.nextInt(3) == 0 ? model.get(id) : changed(model.get(id));
        } else {
          row = randomRow(nextId++);
          used.add((Long) row.get(0));
        }
        source.add(row);
      }

      int optionChoice = random.nextInt(10);
      UpsertOptions options =
          optionChoice == 0
              ? UpsertOptions.skipUpdate()
              : optionChoice == 1 ? UpsertOptions.skipInsert() : UpsertOptions.defaults();

      long updated = 0;
      long inserted = 0;
      for (List<Object> row : source) {
        Long id = (Long) row.get(0);
        List<Object> current = model.get(id);
        if (current == null) {
          if (options.whenNotMatchedInsertAll()) {
            inserted += 1;
            model.put(id, row);
          }
        } else if (options.whenMatchedUpdateAll() && !current.equals(row)) {
          updated += 1;
          model.put(id, row);
        }
      }

      Long before = RowEditsTables.currentSnapshotId(table);
      UpsertResult result = edits.upsert(records(source), List.of("id"), options);
      String what = "upsert of " + source.size() + " rows with " + options + " -> " + result;
      assertThat(result.rowsUpdated()).as(what).isEqualTo(updated);
      assertThat(result.rowsInserted()).as(what).isEqualTo(inserted);
      if (updated == 0 && inserted == 0) {
        assertThat(RowEditsTables.currentSnapshotId(table)).as(what).isEqualTo(before);
      }
      return what;
    }

    private String delete() {
      Filter filter = randomFilter();
      long expected = model.values().stream().filter(filter.matches).count();
      Long before = RowEditsTables.currentSnapshotId(table);
      long deleted = edits.delete(filter.expression);
      String what = "delete " + filter.expression + " -> " + deleted;
      if (deleted != expected) {
        model.values().removeIf(filter.matches);
        check(what);
      }
      assertThat(deleted).as(what).isEqualTo(expected);
      model.values().removeIf(filter.matches);
      if (expected == 0) {
        assertThat(RowEditsTables.currentSnapshotId(table)).as(what).isEqualTo(before);
      }
      return what;
    }

    private String overwrite() {
      Filter filter = randomFilter();
      List<List<Object>> rows = new ArrayList<>();
      int count = random.nextInt(8);
      for (int i = 0; i < count; i += 1) {
        rows.add(randomRow(nextId++));
      }
      long expected = model.values().stream().filter(filter.matches).count();
      int snapshotsBefore = snapshotCount();
      OverwriteResult result = edits.overwrite(records(rows), filter.expression);
      String what = "overwrite " + filter.expression + " with " + count + " rows -> " + result;
      if (result.rowsDeleted() != expected) {
        model.values().removeIf(filter.matches);
        rows.forEach(row -> model.put((Long) row.get(0), row));
        check(what);
      }
      assertThat(result.rowsDeleted()).as(what).isEqualTo(expected);
      assertThat(result.rowsAppended()).as(what).isEqualTo(count);
      assertThat(snapshotCount())
          .as(what + ": one snapshot at most")
          .isEqualTo(snapshotsBefore + (expected == 0 && count == 0 ? 0 : 1));
      model.values().removeIf(filter.matches);
      rows.forEach(row -> model.put((Long) row.get(0), row));
      return what;
    }

    private int snapshotCount() {
      table.refresh();
      int count = 0;
      for (Object ignored : table.snapshots()) {
        count += 1;
      }
      return count;
    }

    private void check(String after) {
      Map<Long, List<Object>> actual = new TreeMap<>();
      for (Record record : RowEditsTables.read(table)) {
        List<Object> row = values(record);
        assertThat(actual.put((Long) row.get(0), row))
            .as("after %s: id %s appears twice in the table", after, row.get(0))
            .isNull();
      }
      if (!actual.equals(model)) {
        Set<Long> ids = new HashSet<>(actual.keySet());
        ids.addAll(model.keySet());
        StringBuilder diff = new StringBuilder();
        ids.stream()
            .sorted()
            .filter(id -> !Objects.equals(actual.get(id), model.get(id)))
            .limit(10)
            .forEach(
                id ->
                    diff.append("\n  id ")
                        .append(id)
                        .append(": table ")
                        .append(actual.get(id))
                        .append(", model ")
                        .append(model.get(id)));
        throw new AssertionError("After " + after + " the table differs from the model:" + diff);
      }
    }

    private List<Object> randomRow(long id) {
      return Arrays.asList(
          id,
          random.nextInt(5) == 0 ? null : "n" + random.nextInt(20),
          random.nextInt(7) == 0 ? null : DAY0.plusDays(random.nextInt(20)),
          random.nextInt(7) == 0
              ? null
              : random.nextInt(30) == 0 ? Double.NaN : random.nextInt(10000) / 100.0,
          random.nextInt(7) == 0 ? null : BigDecimal.valueOf(random.nextInt(100000) - 50000, 2),
          random.nextInt(7) == 0 ? null : random.nextBoolean(),
          random.nextInt(7) == 0 ? null : TS0.plusSeconds(random.nextInt(86400 * 20)));
    }

    private List<Object> changed(List<Object> row) {
      List<Object> fresh = randomRow((Long) row.get(0));
      List<Object> result = new ArrayList<>(row);
      int changes = 1 + random.nextInt(2);
      for (int i = 0; i < changes; i += 1) {
        int column = 1 + random.nextInt(row.size() - 1);
        result.set(column, fresh.get(column));
      }
      return result;
    }

    /** A filter and the same condition under SQL semantics (a null never matches). */
    private static final class Filter {
      private final Expression expression;
      private final Predicate<List<Object>> matches;

      Filter(Expression expression, Predicate<List<Object>> matches) {
        this.expression = expression;
        this.matches = matches;
      }
    }

    private Filter randomFilter() {
      Filter filter = simpleFilter();
      int combine = random.nextInt(10);
      if (combine == 0) {
        Filter other = simpleFilter();
        return new Filter(
            Expressions.and(filter.expression, other.expression),
            filter.matches.and(other.matches));
      } else if (combine == 1) {
        Filter other = simpleFilter();
        return new Filter(
            Expressions.or(filter.expression, other.expression), filter.matches.or(other.matches));
      }
      return filter;
    }

    private Filter simpleFilter() {
      switch (random.nextInt(13)) {
        case 0:
          {
            long id = random.nextInt((int) Math.max(1, nextId));
            return new Filter(Expressions.lessThan("id", id), row -> (Long) row.get(0) < id);
          }
        case 1:
          {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(6); i += 1) {
              ids.add((long) random.nextInt((int) Math.max(1, nextId)));
            }
            return new Filter(Expressions.in("id", ids), row -> ids.contains((Long) row.get(0)));
          }
        case 2:
          {
            String name = "n" + random.nextInt(20);
            return new Filter(
                Expressions.notEqual("name", name),
                row -> row.get(1) != null && !row.get(1).equals(name));
          }
        case 3:
          return new Filter(Expressions.isNull("name"), row -> row.get(1) == null);
        case 4:
          {
            LocalDate day = DAY0.plusDays(random.nextInt(20));
            return new Filter(
                Expressions.lessThan("day", day.toString()),
                row -> row.get(2) != null && ((LocalDate) row.get(2)).isBefore(day));
          }
        case 5:
          {
            LocalDate day = DAY0.plusDays(random.nextInt(20));
            return new Filter(
                Expressions.not(Expressions.lessThan("day", day.toString())),
                row -> row.get(2) != null && !((LocalDate) row.get(2)).isBefore(day));
          }
        case 6:
          {
            double score = random.nextInt(10000) / 100.0;
            return new Filter(
                Expressions.lessThan("score", score),
                row -> row.get(3) != null && Double.compare((Double) row.get(3), score) < 0);
          }
        case 7:
          {
            BigDecimal amount = BigDecimal.valueOf(random.nextInt(100000) - 50000, 2);
            return new Filter(
                Expressions.greaterThan("amount", amount),
                row -> row.get(4) != null && ((BigDecimal) row.get(4)).compareTo(amount) > 0);
          }
        case 8:
          {
            boolean flag = random.nextBoolean();
            return new Filter(
                Expressions.equal("flag", flag),
                row -> row.get(5) != null && (Boolean) row.get(5) == flag);
          }
        case 9:
          {
            boolean flag = random.nextBoolean();
            return new Filter(
                Expressions.not(Expressions.equal("flag", flag)),
                row -> row.get(5) != null && (Boolean) row.get(5) != flag);
          }
        case 10:
          {
            LocalDateTime ts = TS0.plusSeconds(random.nextInt(86400 * 20));
            return new Filter(
                Expressions.lessThanOrEqual("ts", ts.toString()),
                row -> row.get(6) != null && !((LocalDateTime) row.get(6)).isAfter(ts));
          }
        case 11:
          return new Filter(
              Expressions.and(Expressions.notNull("flag"), Expressions.isNull("day")),
              row -> row.get(5) != null && row.get(2) == null);
        default:
          return random.nextBoolean()
              ? new Filter(Expressions.alwaysFalse(), row -> false)
              : new Filter(Expressions.equal("id", -1L), row -> false);
      }
    }

    private static List<Record> records(List<List<Object>> rows) {
      List<Record> records = new ArrayList<>();
      for (List<Object> row : rows) {
        GenericRecord record = GenericRecord.create(SCHEMA);
        for (int i = 0; i < row.size(); i += 1) {
          record.set(i, row.get(i));
        }
        records.add(record);
      }
      return records;
    }

    private static List<Object> values(Record record) {
      // IcebergGenerics may add _pos after the table's columns; take the columns only
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < SCHEMA.columns().size(); i += 1) {
        values.add(record.get(i));
      }
      return values;
    }
  }
}
