package dev.transforms.singlenode.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.transforms.singlenode.internal.plan.ReadStrategy;
import dev.transforms.singlenode.internal.plan.ReadPlanner;
import dev.transforms.runtime.Transforms;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.internal.arrowcpp.ArrowDatasetRead;
import dev.transforms.singlenode.internal.duckdb.DuckDbArrowRead;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code arrow()} through Arrow C++'s Parquet reader (arrow-dataset) gives the very root the engine's
 * reader gives, and is not used where reading columns by name could go wrong.
 */
public class ArrowDatasetReadTest {

  @TempDir Path dir;

  @BeforeAll
  static void loadTheNativeLibrary() {
    // on a platform arrow-dataset bundles no library for, arrow() reads another way (the other tests)
    assumeTrue(ArrowDatasetRead.awaitReady(), "Arrow C++'s reader loads on this platform");
  }

  private Transforms runner;

  @AfterEach
  void closeTheRunner() {
    if (runner != null) {
      runner.close();
    }
  }

  /** The table {@code /app/source}, in a catalog open until the test ends. */
  private Table table(Schema schema) throws IOException {
    runner = DirectScanTest.open(dir, "");
    return DirectScanTest.create(runner, schema);
  }

  /** Reads the table with native readers allowed and with the engine's only; checks both roots are equal. */
  private static boolean sameRootBothWays(ArrowTableReader reader, long rows) {
    try (BufferAllocator allocator = new RootAllocator()) {
      long before = ReadPlanner.reads(ReadStrategy.ARROW_CPP);
      try (VectorSchemaRoot nativeRead = reader.readAll(allocator);
          VectorSchemaRoot engine = reader.withDuckDb(false).readAll(allocator)) {
        boolean byArrowCpp = ReadPlanner.reads(ReadStrategy.ARROW_CPP) == before + 1;
        assertThat(nativeRead.getRowCount()).isEqualTo(rows);
        assertThat(nativeRead.getSchema()).isEqualTo(engine.getSchema());
        assertThat(ArrowDirectReadTest.Capture.text(nativeRead)).isEqualTo(ArrowDirectReadTest.Capture.text(engine));
        return byArrowCpp;
      }
    }
  }

  @Test
  void theCommonTypesReadThroughArrowCppToTheSameRoot() throws IOException {
    Schema schema = ArrowDirectReadTest.COMMON;
    Table table = table(schema);
    List<Record> rows = ArrowDirectReadTest.commonRows(3000);
    // one file, so that the rows' order is the file's in both reads
    SqlTables.append(table, rows);
    assertThat(sameRootBothWays(ArrowTableReader.of(table), 3000)).as("Arrow C++ read the table").isTrue();
    assertThat(sameRootBothWays(ArrowTableReader.of(table).select("text", "small"), 3000))
        .as("Arrow C++ read a selection of columns").isTrue();
  }

  @Test
  void aLargeReadTakesTwoScannersAndGivesTheSameRoot() throws Exception {
    Schema schema = DirectScanTest.PRIMITIVES.select("id", "small", "price", "day", "text");
    Table table = table(schema);
    List<Record> rows = new ArrayList<>();
    for (long i = 0; i < 250_000; i++) {
      rows.add(SqlTables.row(schema, i, i % 9 == 0 ? null : (int) (i % 1000), BigDecimal.valueOf(i, 2),
          LocalDate.of(2000, 1, 1).plusDays(i % 9000), i % 4 == 0 ? null : "t" + i));
    }
    SqlTables.append(table, rows);
    try (AutoCloseable arrowCpp = ReadPlanner.force(ReadStrategy.ARROW_CPP)) { // not the page decoder
      assertThat(sameRootBothWays(ArrowTableReader.of(table), 250_000)).as("Arrow C++ read the table").isTrue();
    }
  }

  @Test
  void aRenamedColumnIsNotReadByName() throws IOException {
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "label", Types.StringType.get()));
    Table table = table(schema);
    SqlTables.append(table, List.of(SqlTables.row(schema, 1L, "before"), SqlTables.row(schema, 2L, "rename")));
    table.updateSchema().renameColumn("label", "title").commit();
    SqlTables.append(table, List.of(SqlTables.row(table.schema(), 3L, "after")));
    long duckReads = ReadPlanner.reads(ReadStrategy.DUCKDB);
    assertThat(sameRootBothWays(ArrowTableReader.of(table), 3)).as("Arrow C++ kept off a renamed column").isFalse();
    assertThat(ReadPlanner.reads(ReadStrategy.DUCKDB)).as("DuckDB, which reads by field id, read it")
        .isEqualTo(duckReads + 1);
  }

  @Test
  void aColumnAddedLaterReadsAsNullInOlderFiles() throws IOException {
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    Table table = table(schema);
    SqlTables.append(table, List.of(SqlTables.row(schema, 1L), SqlTables.row(schema, 2L)));
    table.updateSchema().addColumn("note", Types.StringType.get()).commit();
    SqlTables.append(table, List.of(SqlTables.row(table.schema(), 3L, "new")));
    // whichever reader reads it, the rows are the engine's: older files give null for the new column
    sameRootBothWays(ArrowTableReader.of(table).select("id", "note"), 3);
  }

  @Test
  void theSwitchTurnsArrowCppOff() throws IOException {
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    Table table = table(schema);
    SqlTables.append(table, List.of(SqlTables.row(schema, 1L)));
    System.setProperty(ArrowDatasetRead.SWITCH, "false");
    try {
      assertThat(sameRootBothWays(ArrowTableReader.of(table), 1)).isFalse();
    } finally {
      System.clearProperty(ArrowDatasetRead.SWITCH);
    }
    assertThat(sameRootBothWays(ArrowTableReader.of(table), 1)).isTrue();
  }
}
