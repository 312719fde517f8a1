package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.internal.arrowcpp.ArrowDatasetRead;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * This module has DuckDB and not the optional {@code arrow-dataset}, as a user's project may: the
 * paths that would use Arrow C++ read and rewrite another way, and nothing fails for the class that is
 * not there.
 */
@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
class WithoutArrowDatasetTest {

  TestWarehouse warehouse;

  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "label", Types.StringType.get()));

  @Test
  void largeReadsAndRewritesGoAnotherWay() {
    assertThatThrownBy(() -> Class.forName("org.apache.arrow.dataset.jni.JniLoader"))
        .as("this module leaves arrow-dataset out").isInstanceOf(ClassNotFoundException.class);
    Table table = warehouse.createTable("/app/large", SCHEMA);
    int rows = 450_000; // a rewrite by DuckDB, and a read in two scans
    List<Record> records = new ArrayList<>(rows);
    for (long id = 0; id < rows; id++) {
      GenericRecord record = GenericRecord.create(SCHEMA);
      record.setField("id", id);
      record.setField("label", id % 3 == 0 ? null : "row " + id);
      records.add(record);
    }
    RowEdits.on(table).append(records);

    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot all = ArrowTableReader.of(table).readAll(allocator)) {
      assertThat(all.getRowCount()).isEqualTo(rows);
    }
    assertThat(ArrowDatasetRead.awaitReady()).isFalse();
    long pageCopies = RewritePlanner.rewrites(RewriteStrategy.PAGE_COPY);

    assertThat(RowEdits.on(table).delete("id >= 1000 and id < 2000")).isEqualTo(1000);

    assertThat(RewritePlanner.rewrites(RewriteStrategy.PAGE_COPY)).as("the rewrite copied pages").isEqualTo(pageCopies + 1);
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot left = ArrowTableReader.of(table).readAll(allocator)) {
      assertThat(left.getRowCount()).isEqualTo(rows - 1000);
    }
  }
}
