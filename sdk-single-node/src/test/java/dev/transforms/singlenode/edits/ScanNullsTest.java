package dev.transforms.singlenode.edits;

import static dev.transforms.singlenode.edits.RowEditsTest.SCHEMA;
import static dev.transforms.singlenode.edits.RowEditsTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A scan with a filter returns exactly the rows a delete with the same filter removes: nulls never match. */
class ScanNullsTest {
  @TempDir Path dir;

  /** Rows: 1 (null, 1), 2 ('a', 2), 3 ('b', null), 4 ('b', 4), 5 ('c', 1); the ids SQL selects. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "name != 'a'                                     | 3 4 5",
        "NOT name = 'a'                                  | 3 4 5",
        "qty < 3                                         | 1 2 5",
        "NOT (qty >= 3)                                  | 1 2 5",
        "name NOT LIKE 'a'                               | 3 4 5",
        "qty NOT BETWEEN 2 AND 3                         | 1 4 5",
        "name NOT IN ('a') OR qty > 3                    | 3 4 5",
        "qty > 3 OR (name != 'b' AND name IS NOT NULL)   | 2 4 5"
      })
  void scannedRowsAreTheRowsADeleteRemoves(String filter, String expectedIds) {
    Table table =
        RowEditsTables.create(dir, "t", SCHEMA, PartitionSpec.unpartitioned(), 2, true, Map.of());
    RowEdits edits = RowEdits.on(table);
    edits.append(
        List.of(
            row(1, null, 1), row(2, "a", 2), row(3, "b", null), row(4, "b", 4), row(5, "c", 1)));

    List<Long> scanned = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = edits.scan(filter, allocator)) {
      BigIntVector ids = (BigIntVector) root.getVector("id");
      for (int i = 0; i < root.getRowCount(); i += 1) {
        scanned.add(ids.get(i));
      }
    }
    long deleted = edits.delete(filter);
    List<Long> left = new ArrayList<>();
    RowEditsTables.read(table).forEach(r -> left.add((Long) r.getField("id")));

    List<Long> expected = new ArrayList<>();
    for (String id : expectedIds.split(" ")) {
      expected.add(Long.parseLong(id));
    }
    assertThat(scanned).as("a null in a compared column is unknown, never true").isEqualTo(expected);
    assertThat(deleted).isEqualTo(scanned.size());
    assertThat(left).doesNotContainAnyElementsOf(scanned).hasSize(5 - scanned.size());
  }
}
