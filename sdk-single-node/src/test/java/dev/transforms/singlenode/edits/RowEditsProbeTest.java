package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merge-on-read upserts of a file of several row groups that already has position deletes, matching
 * more rows than the probe's second pass reads at once ({@link ProbeScan#CHUNK_ROWS}): by an integral
 * key (tested unboxed) and by a string key (tested by the probe's own check). Half the matched rows
 * are equal to their source row and must be left alone; the table must hold exactly what the edits
 * say, row by row. Rows that differ in one column only, whichever it is, and row lineage across the
 * second pass's two ways of reading.
 */
class RowEditsProbeTest {

  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.required(2, "code", Types.StringType.get()),
      Types.NestedField.optional(3, "name", Types.StringType.get()),
      Types.NestedField.optional(4, "amount", Types.DecimalType.of(12, 2)),
      Types.NestedField.optional(5, "day", Types.DateType.get()));

  private static final int ROWS = 60_000;

  @TempDir Path dir;

  @Test
  void upsertsOverManyMatchedRowsChangeExactlyTheRowsThatDiffer() {
    Table table = RowEditsTables.create(dir, "probe", SCHEMA, PartitionSpec.unpartitioned(), 2, true, Map.of(
        TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "262144",
        TableProperties.PARQUET_PAGE_ROW_LIMIT, "1000"));
    RowEdits edits = RowEdits.on(table);
    Map<Long, Record> expected = new HashMap<>();
    List<Record> seed = new ArrayList<>();
    for (long id = 0; id < ROWS; id++) {
      Record row = row(id, 0);
      seed.add(row);
      expected.put(id, row);
    }
    edits.append(seed);
    table.refresh();
    assertThat(table.currentSnapshot().addedDataFiles(table.io()).iterator().next().splitOffsets())
        .as("row groups").hasSizeGreaterThan(1);

    assertThat(edits.delete(Expressions.lessThan("id", 3_000L))).isEqualTo(3_000);
    expected.keySet().removeIf(id -> id < 3_000);

    // by id: every other row up to 50,000; of the live ones, every fourth id is sent unchanged
    List<Record> byId = new ArrayList<>();
    long updated = 0;
    long inserted = 0;
    long matched = 0;
    for (long id = 0; id < 50_000; id += 2) {
      boolean same = id % 4 == 0;
      Record row = row(id, same ? 0 : 1);
      byId.add(row);
      if (!expected.containsKey(id)) {
        inserted += 1;
      } else {
        matched += 1;
        updated += row.equals(expected.get(id)) ? 0 : 1; // a row of nulls but for its keys never changes
      }
      expected.put(id, row);
    }
    for (long id = ROWS; id < ROWS + 1_000; id++) {
      byId.add(row(id, 1));
      expected.put(id, row(id, 1));
      inserted += 1;
    }
    assertThat(matched).as("more matched rows than one chunk").isGreaterThan(ProbeScan.CHUNK_ROWS);
    UpsertResult result = edits.upsert(byId, List.of("id"));
    assertThat(result.rowsUpdated()).isEqualTo(updated);
    assertThat(result.rowsInserted()).isEqualTo(inserted);
    assertSameRows(table, expected);

    // by code, a string: a row in three from 30,000 on, changed
    List<Record> byCode = new ArrayList<>();
    long changed = 0;
    for (long id = 30_000; id < ROWS; id += 3) {
      Record row = row(id, 2);
      byCode.add(row);
      changed += row.equals(expected.put(id, row)) ? 0 : 1;
    }
    UpsertResult second = edits.upsert(byCode, List.of("code"));
    assertThat(second.rowsUpdated()).isEqualTo(changed);
    assertThat(second.rowsInserted()).isZero();
    assertSameRows(table, expected);
    assertNoFileLeftOver(table);

    // every source row is written (each differs or is new): the rows written during the scan are kept
    List<Record> allWritten = new ArrayList<>();
    for (long id = 51_000; id < 52_000; id++) {
      allWritten.add(row(id, 3));
    }
    for (long id = 70_000; id < 70_100; id++) {
      allWritten.add(row(id, 3));
    }
    allWritten.forEach(row -> expected.put((Long) row.get(0), row));
    UpsertResult third = edits.upsert(allWritten, List.of("id"));
    assertThat(third.rowsUpdated()).isEqualTo(1_000);
    assertThat(third.rowsInserted()).isEqualTo(100);
    assertSameRows(table, expected);
    assertNoFileLeftOver(table);
  }

  /**
   * The second pass settles a matched row at the first column, cheapest first, that differs from its
   * source row, without reading the others: a row that differs in one column only must be replaced
   * whichever column it is (the last one read too), an equal row left alone, and a replaced row keep
   * its lineage id. With few equal rows the pass settles row by row throughout; with many it stops
   * after a sample and reads the rest in groups of columns.
   */
  @Test
  void aRowThatDiffersInOneColumnIsReplacedWhicheverColumnItIs() {
    Table table = RowEditsTables.create(dir, "settle", SCHEMA, PartitionSpec.unpartitioned(), 3, true, Map.of(
        TableProperties.PARQUET_PAGE_ROW_LIMIT, "1000"));
    RowEdits edits = RowEdits.on(table);
    Map<Long, Record> expected = new HashMap<>();
    List<Record> seed = new ArrayList<>();
    for (long id = 0; id < 20_000; id++) {
      Record row = row(id, 0);
      seed.add(row);
      expected.put(id, row);
    }
    edits.append(seed);

    for (int equalOneIn : new int[] {10, 2}) { // settled throughout; then too many equal rows
      Map<Long, List<Long>> before = lineage(table);
      List<Record> source = new ArrayList<>();
      java.util.Set<Long> changed = new java.util.HashSet<>();
      for (long id = 1; id < 20_000; id += 3) {
        Record row = expected.get(id).copy();
        if (id % equalOneIn != 0) {
          int column = 1 + (int) (id % 4); // code, name, amount or day, alone
          row.set(column, changedValue(column, id, equalOneIn));
          changed.add(id);
        }
        source.add(row);
        expected.put(id, row);
      }
      UpsertResult result = edits.upsert(source, List.of("id"));
      assertThat(result.rowsUpdated()).as("rows that differ, %s equal", equalOneIn).isEqualTo(changed.size());
      assertThat(result.rowsInserted()).isZero();
      assertSameRows(table, expected);

      long sequence = table.currentSnapshot().sequenceNumber();
      Map<Long, List<Long>> after = lineage(table);
      for (Map.Entry<Long, List<Long>> entry : after.entrySet()) {
        List<Long> was = before.get(entry.getKey());
        List<Long> expectedLineage = changed.contains(entry.getKey()) ? List.of(was.get(0), sequence) : was;
        assertThat(entry.getValue()).as("lineage of id %s", entry.getKey()).isEqualTo(expectedLineage);
      }
    }
    assertNoFileLeftOver(table);
  }

  /** A value of one column of a row that differs from any the row has held. */
  private static Object changedValue(int column, long id, int round) {
    return switch (column) {
      case 1 -> "c" + id + "/" + round;
      case 2 -> "renamed " + id + "/" + round;
      case 3 -> BigDecimal.valueOf(-id - round, 2);
      default -> LocalDate.of(1990, 1, 1).plusDays(id % 1_000 + round);
    };
  }

  /** Each row's {@code _row_id} and {@code _last_updated_sequence_number}, by id. */
  private static Map<Long, List<Long>> lineage(Table table) {
    table.refresh();
    Map<Long, List<Long>> lineage = new HashMap<>();
    Schema withLineage = org.apache.iceberg.MetadataColumns.schemaWithRowLineage(SCHEMA);
    try (org.apache.iceberg.io.CloseableIterable<Record> rows =
        org.apache.iceberg.data.IcebergGenerics.read(table).project(withLineage).build()) {
      for (Record row : rows) {
        lineage.put((Long) row.get(0), List.of((Long) row.get(5), (Long) row.get(6)));
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return lineage;
  }

  /** Every data and delete file in the table's folder is one some snapshot added: none is orphaned. */
  private static void assertNoFileLeftOver(Table table) {
    table.refresh();
    java.util.Set<String> added = new java.util.HashSet<>();
    for (org.apache.iceberg.Snapshot snapshot : table.snapshots()) {
      snapshot.addedDataFiles(table.io()).forEach(file -> added.add(Path.of(java.net.URI.create(file.location())).toString()));
      snapshot.addedDeleteFiles(table.io()).forEach(file -> added.add(Path.of(java.net.URI.create(file.location())).toString()));
    }
    Path data = Path.of(java.net.URI.create(table.location())).resolve("data");
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(data)) {
      List<String> orphans = files.filter(f -> f.toString().endsWith(".parquet"))
          .map(Path::toString).filter(f -> !added.contains(f)).toList();
      assertThat(orphans).as("files no snapshot added").isEmpty();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A row; version 0 is the table's, other versions change every column but the keys. */
  private static Record row(long id, int version) {
    GenericRecord row = GenericRecord.create(SCHEMA);
    row.set(0, id);
    row.set(1, "c" + id);
    row.set(2, id % 13 == 0 ? null : "name " + id + "/" + version);
    row.set(3, id % 17 == 0 ? null : BigDecimal.valueOf(id * 7 + version, 2));
    row.set(4, id % 19 == 0 ? null : LocalDate.of(2020, 1, 1).plusDays((id + version) % 2_000));
    return row;
  }

  private static Map<Long, String> contents(Table table) {
    Map<Long, String> rows = new HashMap<>();
    for (Record row : RowEditsTables.read(table)) {
      GenericRecord columns = GenericRecord.create(SCHEMA); // the table's columns, without metadata
      for (int i = 0; i < SCHEMA.columns().size(); i++) {
        columns.set(i, row.getField(SCHEMA.columns().get(i).name()));
      }
      assertThat(rows.put((Long) row.get(0), columns.toString())).as("duplicate id %s", row.get(0)).isNull();
    }
    return rows;
  }

  /** The table holds exactly the expected rows; a failure names the first rows that differ. */
  private static void assertSameRows(Table table, Map<Long, Record> expected) {
    Map<Long, String> actual = contents(table);
    List<String> differences = new ArrayList<>();
    java.util.Set<Long> ids = new java.util.TreeSet<>(actual.keySet());
    ids.addAll(expected.keySet());
    for (Long id : ids) {
      String want = expected.containsKey(id) ? expected.get(id).toString() : null;
      if (!java.util.Objects.equals(actual.get(id), want) && differences.size() < 10) {
        differences.add("id " + id + ": " + actual.get(id) + ", expected " + want);
      }
    }
    assertThat(differences).as("rows that differ").isEmpty();
    assertThat(actual).hasSize(expected.size());
  }
}
