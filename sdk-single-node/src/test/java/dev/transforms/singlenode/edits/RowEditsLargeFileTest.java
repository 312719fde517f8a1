package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copy-on-write rewrites of files large enough to be written on a second thread while they are read:
 * every kept row must arrive once, in a file of its own table, whatever the order of the two threads.
 */
class RowEditsLargeFileTest {

  static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()));

  @TempDir Path dir;

  @Test
  void aLargeCopyOnWriteRewriteKeepsEveryOtherRowExactlyOnce() {
    Table table = RowEditsTables.create(dir, "large", SCHEMA, PartitionSpec.unpartitioned(), 2, false, Map.of());
    int rows = 120_000;
    List<Record> seed = new ArrayList<>(rows);
    for (long id = 0; id < rows; id++) {
      seed.add(record(id, "n" + id));
    }
    RowEdits edits = RowEdits.on(table);
    edits.append(seed);

    // Updates spread over the file, and new rows: the whole file is rewritten.
    List<Record> upserts = new ArrayList<>();
    for (long id = 0; id < rows; id += 997) {
      upserts.add(record(id, "changed" + id));
    }
    upserts.add(record(rows + 1, "new"));
    UpsertResult result = edits.upsert(upserts, List.of("id"));
    long deleted = edits.delete(org.apache.iceberg.expressions.Expressions.lessThan("id", 1_000L));

    Map<Long, String> expected = new HashMap<>();
    seed.forEach(r -> expected.put((Long) r.getField("id"), (String) r.getField("name")));
    upserts.forEach(r -> expected.put((Long) r.getField("id"), (String) r.getField("name")));
    expected.keySet().removeIf(id -> id < 1_000L);

    Map<Long, String> actual = new HashMap<>();
    for (Record r : RowEditsTables.read(table)) {
      assertThat(actual.put((Long) r.getField("id"), (String) r.getField("name"))).as("duplicate id").isNull();
    }
    assertThat(result.rowsUpdated()).isEqualTo(upserts.size() - 1);
    assertThat(result.rowsInserted()).isEqualTo(1);
    assertThat(deleted).isEqualTo(1_000);
    assertThat(actual).isEqualTo(expected);
  }

  private static Record record(long id, String name) {
    GenericRecord record = GenericRecord.create(SCHEMA);
    record.setField("id", id);
    record.setField("name", name);
    return record;
  }
}
