package dev.transforms.runtime.internal.incremental;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.spi.ChangeRange;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What an incremental read says when the history from the last build's snapshot to the current one is
 * broken: a snapshot between them expired, or the table was rolled back onto another line of history.
 * Each reason names what happened (an expired middle used to read as a rollback).
 */
class BrokenHistoryTest {

  private static final DatasetPath PATH = DatasetPath.of("/src/events");

  private Table table;

  @BeforeEach
  void createTable() {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("memory", Map.of());
    catalog.createNamespace(Namespace.of("src"));
    table = catalog.createTable(TableIdentifier.of("src", "events"),
        new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
  }

  private long append(String name) {
    table.newAppend().appendFile(DataFiles.builder(PartitionSpec.unpartitioned()).withPath("mem://t/" + name)
        .withFormat(FileFormat.PARQUET).withFileSizeInBytes(10).withRecordCount(1).build()).commit();
    return table.currentSnapshot().snapshotId();
  }

  @Test
  void aSnapshotExpiredBetweenTheLastBuildAndNowIsNamed() {
    long read = append("a.parquet");
    long middle = append("b.parquet");
    long now = append("c.parquet");
    table.expireSnapshots().expireSnapshotId(middle).cleanExpiredFiles(false).commit();

    String expected = "the history between them was expired (snapshot " + middle + ", the parent of snapshot " + now
        + ", no longer exists)";
    assertThatThrownBy(() -> ChangeRange.of(table, OptionalLong.of(read), now)).hasMessageEndingWith(expected);
    assertThat(IncrementalDecider.appendsOnly(PATH, table, OptionalLong.of(read), OptionalLong.of(now)))
        .contains("snapshot " + read + " of input /src/events that the last build read: " + expected);
  }

  @Test
  void aRollbackOntoAnotherLineOfHistoryIsNamed() {
    long first = append("a.parquet");
    long read = append("b.parquet");
    table.manageSnapshots().rollbackTo(first).commit();
    long now = append("c.parquet");

    assertThatThrownBy(() -> ChangeRange.of(table, OptionalLong.of(read), now))
        .hasMessageEndingWith("it is not an ancestor of snapshot " + now + " (the table was rolled back or replaced)");
    assertThat(IncrementalDecider.inHistory(PATH, table, OptionalLong.of(read), OptionalLong.of(now)).orElseThrow())
        .endsWith("(the table was rolled back or replaced)");
  }
}
