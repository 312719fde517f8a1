package dev.transforms.singlenode.arrow;

import dev.transforms.singlenode.internal.plan.ReadPlanner;
import dev.transforms.singlenode.internal.plan.ReadStrategy;
import static dev.transforms.singlenode.arrow.TableFixtures.record;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class ArrowTableReaderTest {
  static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "data", Types.StringType.get()),
          optional(3, "category", Types.StringType.get()));

  @TempDir Path dir;
  @RegisterExtension final LeakCheckedAllocator memory = new LeakCheckedAllocator();
  private BufferAllocator allocator;

  @BeforeEach
  void useAllocator() {
    allocator = memory.get();
  }

  private static List<Record> rows(long fromInclusive, long toExclusive) {
    return LongStream.range(fromInclusive, toExclusive)
        .mapToObj(id -> record(SCHEMA, id, "row-" + id, id % 2 == 0 ? "even" : "odd"))
        .collect(Collectors.toList());
  }

  private Table tableWithRows(String name, int formatVersion, long count) {
    Table table = TableFixtures.create(dir, name, SCHEMA, PartitionSpec.unpartitioned(), formatVersion);
    TableFixtures.append(table, rows(0, count), allocator);
    return table;
  }

  private List<Long> ids(ArrowTableReader reader) {
    try (VectorSchemaRoot root = reader.readAll(allocator)) {
      BigIntVector ids = (BigIntVector) root.getVector("id");
      List<Long> result = new ArrayList<>();
      for (int i = 0; i < root.getRowCount(); i++) {
        result.add(ids.get(i));
      }
      return result;
    }
  }

  private List<Long> idsInBatches(ArrowTableReader reader) throws IOException {
    List<Long> result = new ArrayList<>();
    try (ArrowBatchReader batches = reader.batchSize(3).openBatches(allocator)) {
      VectorSchemaRoot root = batches.getVectorSchemaRoot();
      while (batches.loadNextBatch()) {
        assertThat(root.getRowCount()).isBetween(1, 3);
        BigIntVector ids = (BigIntVector) root.getVector("id");
        for (int i = 0; i < root.getRowCount(); i++) {
          result.add(ids.get(i));
        }
      }
      assertThat(root.getRowCount()).isZero();
      assertThat(batches.rowsRead()).isEqualTo(result.size());
    }
    return result;
  }

  private static List<Long> range(long fromInclusive, long toExclusive, long... except) {
    List<Long> skip = LongStream.of(except).boxed().collect(Collectors.toList());
    return LongStream.range(fromInclusive, toExclusive)
        .filter(id -> !skip.contains(id))
        .boxed()
        .collect(Collectors.toList());
  }

  @Test
  void hidesRowsRemovedByPositionDeletes() throws IOException {
    Table table = TableFixtures.create(dir, "pos", SCHEMA, PartitionSpec.unpartitioned(), 2);
    DataFile file = TableFixtures.append(table, rows(0, 10), allocator).get(0);
    TableFixtures.deletePositions(table, file, 0, 3, 9);

    assertThat(ids(ArrowTableReader.of(table))).isEqualTo(range(0, 10, 0, 3, 9));
    assertThat(idsInBatches(ArrowTableReader.of(table))).isEqualTo(range(0, 10, 0, 3, 9));
    assertThat(TableFixtures.readGenerics(table)).hasSize(7);
  }

  @Test
  void hidesRowsRemovedByEqualityDeletesEvenWhenTheKeyIsNotSelected() throws IOException {
    Table table = tableWithRows("eq", 2, 10);
    TableFixtures.deleteEqual(table, "id", 2L, 7L);

    assertThat(ids(ArrowTableReader.of(table))).isEqualTo(range(0, 10, 2, 7));
    assertThat(idsInBatches(ArrowTableReader.of(table))).isEqualTo(range(0, 10, 2, 7));

    try (VectorSchemaRoot root = ArrowTableReader.of(table).select("data").readAll(allocator)) {
      assertThat(root.getSchema().getFields()).hasSize(1);
      assertThat(root.getRowCount()).isEqualTo(8);
      List<String> data = new ArrayList<>();
      for (int i = 0; i < root.getRowCount(); i++) {
        data.add(root.getVector("data").getObject(i).toString());
      }
      assertThat(data).doesNotContain("row-2", "row-7").contains("row-0", "row-9");
    }
  }

  @Test
  void hidesRowsRemovedByDeletionVectorsInFormatV3() throws IOException {
    Table table = TableFixtures.create(dir, "dv", SCHEMA, PartitionSpec.unpartitioned(), 3);
    DataFile first = TableFixtures.append(table, rows(0, 10), allocator).get(0);
    TableFixtures.append(table, rows(10, 20), allocator);
    TableFixtures.deleteWithVector(table, first, 1, 2, 8);
    assertThat(table.currentSnapshot().addedDeleteFiles(table.io()))
        .singleElement()
        .satisfies(dv -> assertThat(dv.format()).isEqualTo(org.apache.iceberg.FileFormat.PUFFIN));
    TableFixtures.deleteEqual(table, "id", 15L);

    List<Long> expected = range(0, 20, 1, 2, 8, 15);
    assertThat(ids(ArrowTableReader.of(table))).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(idsInBatches(ArrowTableReader.of(table)))
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void appliesTheRowFilterToEveryRowNotOnlyToFiles() throws IOException {
    Table table = tableWithRows("filter", 2, 100);
    assertThat(table.currentSnapshot().addedDataFiles(table.io())).hasSize(1);

    ArrowTableReader reader = ArrowTableReader.of(table).filter(Expressions.lessThan("id", 10L));
    assertThat(ids(reader)).isEqualTo(range(0, 10));
    assertThat(idsInBatches(reader)).isEqualTo(range(0, 10));

    ArrowTableReader both =
        reader.filter(Expressions.equal("category", "odd")).filter(Expressions.notEqual("id", 5L));
    assertThat(ids(both)).containsExactly(1L, 3L, 7L, 9L);
  }

  @Test
  void combinesRowFiltersWithDeletes() throws IOException {
    Table table = TableFixtures.create(dir, "mixed", SCHEMA, PartitionSpec.unpartitioned(), 2);
    DataFile file = TableFixtures.append(table, rows(0, 20), allocator).get(0);
    TableFixtures.deletePositions(table, file, 4);
    TableFixtures.deleteEqual(table, "id", 6L);

    assertThat(ids(ArrowTableReader.of(table).filter(Expressions.lessThan("id", 8L))))
        .isEqualTo(range(0, 8, 4, 6));
  }

  @Test
  void returnsOnlyTheSelectedColumnsEvenWhenTheFilterNeedsOthers() {
    Table table = tableWithRows("select", 2, 20);
    try (VectorSchemaRoot root =
        ArrowTableReader.of(table)
            .select("data")
            .filter(Expressions.greaterThanOrEqual("id", 15L))
            .readAll(allocator)) {
      assertThat(root.getSchema()).isEqualTo(ArrowSchemas.toArrow(SCHEMA.select("data")));
      assertThat(root.getRowCount()).isEqualTo(5);
      assertThat(root.getVector("data").getObject(0).toString()).isEqualTo("row-15");
    }
  }

  @Test
  void matchesNamesWithoutCaseWhenAsked() {
    Table table = tableWithRows("case", 2, 10);
    ArrowTableReader reader =
        ArrowTableReader.of(table)
            .caseSensitive(false)
            .select("ID", "Data")
            .filter(Expressions.equal("CATEGORY", "even"));
    assertThat(reader.projectedSchema().columns())
        .extracting(Types.NestedField::name)
        .containsExactly("id", "data");
    assertThat(ids(reader)).containsExactly(0L, 2L, 4L, 6L, 8L);

    assertThatThrownBy(() -> ArrowTableReader.of(table).select("ID", "data", "nope").readAll(allocator))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'ID', 'nope'")
        .hasMessageContaining("case-sensitive");
  }

  @Test
  void readsOlderSnapshotsAndBranches() {
    Table table = tableWithRows("travel", 2, 5);
    long first = table.currentSnapshot().snapshotId();
    TableFixtures.append(table, rows(5, 8), allocator);
    table.manageSnapshots().createBranch("audit", first).commit();

    assertThat(ids(ArrowTableReader.of(table))).containsExactlyInAnyOrderElementsOf(range(0, 8));
    assertThat(ids(ArrowTableReader.of(table).useSnapshot(first))).isEqualTo(range(0, 5));
    assertThat(ids(ArrowTableReader.of(table).useRef("audit"))).isEqualTo(range(0, 5));
    assertThat(ids(ArrowTableReader.of(table.newScan().useSnapshot(first)))).isEqualTo(range(0, 5));
  }

  @Test
  void streamsManyFilesInBatchesOfAtMostTheBatchSize() throws IOException {
    Table table = TableFixtures.create(dir, "many", SCHEMA, PartitionSpec.unpartitioned(), 2);
    for (int i = 0; i < 4; i++) {
      TableFixtures.append(table, rows(i * 25L, (i + 1) * 25L), allocator);
    }
    // the engine's row reader fills each batch across files
    assertThat(batchSizes(ArrowTableReader.of(table).withNativeReads(false).batchSize(30)))
        .containsExactly(30, 30, 30, 10);
    // the page decoder's files are decoded one by one: a batch is cut from one file
    long decoded = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
    assertThat(batchSizes(ArrowTableReader.of(table).batchSize(30))).containsExactly(25, 25, 25, 25);
    assertThat(batchSizes(ArrowTableReader.of(table).batchSize(10))).containsExactly(10, 10, 5, 10, 10, 5, 10,
        10, 5, 10, 10, 5);
    assertThat(ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER) - decoded).as("files decoded").isEqualTo(8);
  }

  private List<Integer> batchSizes(ArrowTableReader reader) throws IOException {
    List<Integer> sizes = new ArrayList<>();
    long total = 0;
    try (ArrowReader batches = reader.openBatches(allocator)) {
      assertThat(batches.getVectorSchemaRoot().getSchema())
          .isEqualTo(ArrowSchemas.toArrow(SCHEMA));
      while (batches.loadNextBatch()) {
        sizes.add(batches.getVectorSchemaRoot().getRowCount());
        total += batches.getVectorSchemaRoot().getRowCount();
      }
      assertThat(batches.bytesRead()).isPositive();
    }
    assertThat(total).isEqualTo(100);
    return sizes;
  }

  @Test
  void closingABatchReaderEarlyFreesEverything() throws IOException {
    Table table = tableWithRows("early", 2, 50);
    try (ArrowBatchReader batches = ArrowTableReader.of(table).batchSize(10).openBatches(allocator)) {
      assertThat(batches.loadNextBatch()).isTrue();
      assertThat(allocator.getAllocatedMemory()).isPositive();
    }
    // the @AfterEach check proves the root was freed
  }

  @Test
  void readsIdentityPartitionColumns() {
    Table table =
        TableFixtures.create(
            dir, "parts", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("category").build(), 2);
    TableFixtures.append(table, rows(0, 10), allocator);
    try (VectorSchemaRoot root =
        ArrowTableReader.of(table).filter(Expressions.equal("category", "odd")).readAll(allocator)) {
      assertThat(ArrowRecords.toRecords(root, SCHEMA))
          .containsExactlyInAnyOrderElementsOf(
              rows(0, 10).stream()
                  .filter(r -> r.getField("category").equals("odd"))
                  .collect(Collectors.toList()));
    }
  }
}
