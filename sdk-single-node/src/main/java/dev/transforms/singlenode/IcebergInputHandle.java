package dev.transforms.singlenode;

import dev.transforms.api.ReadMode;
import dev.transforms.runtime.engine.BoundInput;
import dev.transforms.singlenode.filter.RowFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;

/** The engine's {@link IcebergInput}: reads through Iceberg generics into runtime-owned Arrow data. */
final class IcebergInputHandle implements IcebergInput {

  private final BoundInput bound;
  private final Table table;
  private final RunMemory memory;

  IcebergInputHandle(BoundInput bound, RunMemory memory) {
    this.bound = bound;
    this.table = bound.table().orElseThrow();
    this.memory = memory;
  }

  @Override
  public Table table() {
    return table;
  }

  @Override
  public OptionalLong currentSnapshotId() {
    return bound.currentSnapshotId();
  }

  @Override
  public OptionalLong previousSnapshotId() {
    return bound.previousSnapshotId();
  }

  @Override
  public VectorSchemaRoot arrow() {
    return scan(Expressions.alwaysTrue(), OptionalLong.empty(), List.of());
  }

  @Override
  public VectorSchemaRoot arrow(ReadMode mode) {
    return switch (mode) {
      case CURRENT -> arrow();
      case PREVIOUS -> previousSnapshotId().isPresent()
          ? scan(Expressions.alwaysTrue(), previousSnapshotId(), List.of()) : empty(schemaAt(OptionalLong.empty()));
      case ADDED -> addedRows();
    };
  }

  @Override
  public VectorSchemaRoot addedRows() {
    if (!bound.readsAdded() || bound.previousSnapshotId().isEmpty() || bound.currentSnapshotId().isEmpty()) {
      return arrow();
    }
    long from = bound.previousSnapshotId().getAsLong();
    long to = bound.currentSnapshotId().getAsLong();
    Schema schema = schemaAt(bound.currentSnapshotId());
    if (from == to) {
      return empty(schema);
    }
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newIncrementalAppendScan().fromSnapshotExclusive(from).toSnapshot(to).project(schema).planFiles()) {
      for (FileScanTask task : tasks) {
        try (CloseableIterable<Record> records = ArrowBridge.readTask(table, task, schema)) {
          for (Record record : records) {
            rows.add(record.copy());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return memory.own(ArrowBridge.toRoot(schema, rows, memory.runtime()));
  }

  @Override
  public ArrowReader arrowReader(int batchSize) {
    Schema schema = schemaAt(bound.currentSnapshotId());
    CloseableIterable<Record> records = bound.currentSnapshotId().isPresent()
        ? IcebergGenerics.read(table).useSnapshot(bound.currentSnapshotId().getAsLong()).build()
        : CloseableIterable.empty();
    return memory.own(new RecordBatchReader(memory.runtime(), schema, records, batchSize));
  }

  @Override
  public VectorSchemaRoot scan(Expression filter, OptionalLong snapshotId, List<String> columns) {
    OptionalLong snapshot = snapshotId.isPresent() ? snapshotId : bound.currentSnapshotId();
    Schema schema = schemaAt(snapshot);
    if (!columns.isEmpty()) {
      schema = schema.select(columns);
    }
    if (snapshot.isEmpty()) {
      return empty(schema);
    }
    IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table).useSnapshot(snapshot.getAsLong()).where(filter);
    if (!columns.isEmpty()) {
      scan = scan.select(columns);
    }
    try (CloseableIterable<Record> records = scan.build()) {
      return memory.own(ArrowBridge.toRoot(schema, records, memory.runtime()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public VectorSchemaRoot scan(String filter) {
    return scan(RowFilter.parse(filter, schemaAt(bound.currentSnapshotId())), OptionalLong.empty(), List.of());
  }

  private Schema schemaAt(OptionalLong snapshotId) {
    if (snapshotId.isPresent() && table.snapshot(snapshotId.getAsLong()) != null) {
      Integer schemaId = table.snapshot(snapshotId.getAsLong()).schemaId();
      if (schemaId != null && table.schemas().containsKey(schemaId)) {
        return table.schemas().get(schemaId);
      }
    }
    return table.schema();
  }

  private VectorSchemaRoot empty(Schema schema) {
    return memory.own(ArrowBridge.toRoot(schema, List.of(), memory.runtime()));
  }

  @Override
  public String toString() {
    return "IcebergInput(" + bound.parameter().requirePath() + " @ " + bound.currentSnapshotId() + ")";
  }
}
