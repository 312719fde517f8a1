package dev.transforms.singlenode.internal.engine;

import dev.transforms.api.ReadMode;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.spi.AdvisoryRule;
import dev.transforms.runtime.spi.BoundInput;
import dev.transforms.runtime.spi.ChangeRange;
import dev.transforms.runtime.spi.RunAdvisories;
import dev.transforms.singlenode.Changelog;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.filter.RowFilter;
import dev.transforms.singlenode.internal.duckdb.RootSlices;
import dev.transforms.singlenode.internal.duckdb.SessionInput;
import dev.transforms.singlenode.internal.plan.DirectScan;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/** The engine's {@link IcebergInput}: reads with the Arrow IO into runtime-owned Arrow data. */
final class IcebergInputHandle implements IcebergInput, SessionInput {

  private final BoundInput bound;
  private final Table table;
  private final RunMemory memory;
  private final RunAdvisories advisories;

  IcebergInputHandle(BoundInput bound, RunMemory memory, RunAdvisories advisories) {
    this.bound = bound;
    this.table = bound.table().orElseThrow();
    this.memory = memory;
    this.advisories = advisories;
  }

  /** The whole-input-in-memory rule: a read of every row held at once, larger than the threshold. */
  private VectorSchemaRoot whole(String method, VectorSchemaRoot rows) {
    if (advisories.enabled() && rows.getRowCount() > advisories.settings().wholeInputRows()) {
      advisories.add(AdvisoryRule.WHOLE_INPUT_IN_MEMORY, method + "() held " + rows.getRowCount()
          + " rows in memory at once (more than " + advisories.settings().wholeInputRows() + ")",
          Optional.of(bound.parameter().requirePath()));
    }
    return rows;
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
    return whole("arrow", read(Expressions.alwaysTrue(), OptionalLong.empty(), List.of()));
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
  public Changelog changes() {
    Changelog changelog = Changelog.of(table);
    if (bound.currentSnapshotId().isPresent()) {
      changelog = changelog.between(bound.readsAdded() ? bound.previousSnapshotId() : OptionalLong.empty(),
          bound.currentSnapshotId().getAsLong());
    }
    List<String> keys = List.copyOf(table.schema().identifierFieldNames());
    return keys.isEmpty() ? changelog : changelog.identifiedBy(keys.toArray(String[]::new));
  }

  @Override
  public VectorSchemaRoot addedRows() {
    if (!bound.readsAdded() || bound.previousSnapshotId().isEmpty() || bound.currentSnapshotId().isEmpty()) {
      return whole("addedRows", read(Expressions.alwaysTrue(), OptionalLong.empty(), List.of()));
    }
    long from = bound.previousSnapshotId().getAsLong();
    long to = bound.currentSnapshotId().getAsLong();
    requireOnlyAppends(from, to);
    Schema schema = schemaAt(bound.currentSnapshotId());
    List<Record> rows = from == to ? List.of() : ArrowBridge.appendedRows(table, from, to, schema);
    return whole("addedRows", memory.own(ArrowRecords.toRoot(rows, schema, memory.runtime())));
  }

  /** Added rows of a range with edits would silently miss what the edits wrote. */
  private void requireOnlyAppends(long from, long to) {
    for (Snapshot s = table.snapshot(to); s != null && s.snapshotId() != from;
        s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
      if (!ChangeRange.keepsEarlierRows(s)) {
        throw new TransformsException("Input " + bound.parameter().requirePath() + " ("
            + table.name() + ") was edited since the last build (snapshot " + s.snapshotId() + ": '" + s.operation()
            + "'), so its added rows are not all of its changes; read them with changes() instead of addedRows()");
      }
    }
  }

  @Override
  public ArrowReader arrowReader(int batchSize) {
    return memory.own(reader(OptionalLong.empty()).batchSize(batchSize).openBatches(memory.runtime()));
  }

  @Override
  public VectorSchemaRoot scan(Expression filter, OptionalLong snapshotId, List<String> columns) {
    return read(filter, snapshotId, columns);
  }

  private VectorSchemaRoot read(Expression filter, OptionalLong snapshotId, List<String> columns) {
    ArrowTableReader reader = reader(snapshotId).filter(filter);
    if (!columns.isEmpty()) {
      reader = reader.select(columns);
    }
    return memory.own(reader.readAll(memory.runtime()));
  }

  /** A reader of one snapshot, the pinned one when none is given. */
  private ArrowTableReader reader(OptionalLong snapshotId) {
    OptionalLong snapshot = snapshotId.isPresent() ? snapshotId : bound.currentSnapshotId();
    ArrowTableReader reader = ArrowTableReader.of(table);
    return snapshot.isPresent() ? reader.useSnapshot(snapshot.getAsLong()) : reader;
  }

  @Override
  public VectorSchemaRoot scan(String filter) {
    return scan(RowFilter.parse(filter, schemaAt(bound.currentSnapshotId())), OptionalLong.empty(), List.of());
  }

  @Override
  public String path() {
    return bound.parameter().requirePath().toString();
  }

  /** The last segment of the input's path, for the SQL session's fallback name. */
  String lastPathSegment() {
    String path = path();
    return path.substring(path.lastIndexOf('/') + 1);
  }

  @Override
  public Schema schema() {
    return schemaAt(bound.currentSnapshotId());
  }

  @Override
  public void checkFilter(String filter) {
    RowFilter.parse(filter, schema());
  }

  /** Streams the rows of a read mode (or of a filter on the pinned snapshot) without keeping them. */
  @Override
  public ArrowReader open(ReadMode mode, String filter, BufferAllocator allocator) {
    if (filter != null) {
      return reader(OptionalLong.empty()).filter(RowFilter.parse(filter, schema())).openBatches(allocator);
    }
    return switch (mode) {
      case CURRENT -> reader(OptionalLong.empty()).openBatches(allocator);
      case PREVIOUS -> previousSnapshotId().isPresent()
          ? reader(previousSnapshotId()).openBatches(allocator)
          : RootSlices.oneBatch(allocator, ArrowRecords.toRoot(List.of(), schema(), allocator));
      case ADDED -> addedReader(allocator);
    };
  }

  @Override
  public Optional<DirectScan> direct(ReadMode mode, String filter) {
    OptionalLong snapshot = filter != null ? OptionalLong.empty() : switch (mode) {
      case CURRENT -> bound.currentSnapshotId();
      case PREVIOUS -> previousSnapshotId();
      // Added rows come from the appended files alone, which the engine's reader picks.
      case ADDED -> addedIsEverything() ? bound.currentSnapshotId() : OptionalLong.empty();
    };
    // DuckDB opens the files by their local paths
    return snapshot.isPresent() ? DirectScan.plan(table, snapshot.getAsLong()).filter(DirectScan::isLocal)
        : Optional.empty();
  }

  /** Whether the added rows are every row: the input is not read incrementally, or has no earlier build. */
  private boolean addedIsEverything() {
    return !bound.readsAdded() || bound.previousSnapshotId().isEmpty() || bound.currentSnapshotId().isEmpty();
  }

  private ArrowReader addedReader(BufferAllocator allocator) {
    if (addedIsEverything()) {
      return open(ReadMode.CURRENT, null, allocator);
    }
    long from = bound.previousSnapshotId().getAsLong();
    long to = bound.currentSnapshotId().getAsLong();
    Schema schema = schema();
    List<Record> rows = from == to ? List.of() : ArrowBridge.appendedRows(table, from, to, schema);
    return RootSlices.oneBatch(allocator, ArrowRecords.toRoot(rows, schema, allocator));
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
    return memory.own(ArrowRecords.toRoot(List.of(), schema, memory.runtime()));
  }

  @Override
  public String toString() {
    return "IcebergInput(" + bound.parameter().requirePath() + " @ " + bound.currentSnapshotId() + ")";
  }
}
