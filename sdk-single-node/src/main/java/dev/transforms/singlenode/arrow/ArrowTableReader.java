package dev.transforms.singlenode.arrow;

import dev.transforms.api.TransformsException;
import dev.transforms.singlenode.filter.SqlNulls;
import dev.transforms.singlenode.internal.plan.ReadChain;
import dev.transforms.singlenode.internal.plan.ReadPlan;
import dev.transforms.singlenode.internal.plan.ReadPlanner;
import dev.transforms.singlenode.internal.read.PageDecoderRead;
import dev.transforms.singlenode.internal.plan.ReadStrategy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.types.Types;

/**
 * Reads the rows of an Iceberg table, or of a scan of it, into Arrow.
 *
 * <p>The rows returned are exactly the live rows of the chosen snapshot that match the row filter:
 * position deletes, equality deletes and deletion vectors are applied, and the row filter is
 * evaluated on every row (it is also used to skip files and row groups). Values follow the type
 * mapping of {@link ArrowSchemas} and {@code docs/arrow-types.md}.
 *
 * <p>A reader is an immutable description of what to read, like Iceberg's {@link TableScan}: each
 * refining method returns a new reader. Nothing is read until {@link #readAll} or {@link
 * #openBatches} is called, and each call reads anew.
 *
 * <pre>{@code
 * try (BufferAllocator allocator = new RootAllocator();
 *     VectorSchemaRoot rows =
 *         ArrowTableReader.of(table)
 *             .filter(Expressions.greaterThan("amount", 100))
 *             .select("id", "amount")
 *             .readAll(allocator)) {
 *   ...
 * }
 * }</pre>
 *
 * <p>Memory: every Arrow buffer comes from the allocator the caller passes. {@link #readAll}
 * returns a root the caller owns and must close. {@link #openBatches} returns an {@link
 * ArrowBatchReader} the caller must close; the reader owns the root it fills, which the caller must
 * not close.
 */
public final class ArrowTableReader {
  /** The default number of rows per batch of {@link #openBatches}. */
  public static final int DEFAULT_BATCH_SIZE = 65_536;

  /** The most rows {@link #readAll} allocates room for before it starts reading. */
  private static final int MAX_INITIAL_ROWS = 1 << 20;

  private final TableScan scan;
  private final List<String> selectedColumns;
  private final int batchSize;
  private final boolean nativeReads;
  private final ReadPlanner planner;

  private ArrowTableReader(TableScan scan, List<String> selectedColumns, int batchSize, boolean nativeReads,
      ReadPlanner planner) {
    this.scan = scan;
    this.selectedColumns = selectedColumns;
    this.batchSize = batchSize;
    this.nativeReads = nativeReads;
    this.planner = planner;
  }

  /**
   * Starts a reader of all columns and all live rows of a table's current snapshot.
   *
   * @param table the table
   * @return a new reader
   */
  public static ArrowTableReader of(Table table) {
    Objects.requireNonNull(table, "table");
    return new ArrowTableReader(table.newScan(), null, DEFAULT_BATCH_SIZE, true, ReadPlanner.standard());
  }

  /**
   * Starts a reader of a configured table scan: its filter, snapshot or branch, projection and case
   * sensitivity are kept. The Arrow columns are those of {@code scan.schema()}, which for a scan
   * with selected columns also holds the columns its filter references; use {@link #select} on the
   * returned reader to have exactly the columns asked for.
   *
   * @param scan the scan
   * @return a new reader
   */
  public static ArrowTableReader of(TableScan scan) {
    Objects.requireNonNull(scan, "scan");
    return new ArrowTableReader(scan, null, DEFAULT_BATCH_SIZE, true, ReadPlanner.standard());
  }

  /**
   * Returns a reader that keeps only rows matching a filter, in addition to any filter already set.
   * The filter follows SQL's three-valued logic ({@link SqlNulls}), as row edits do: a row whose
   * compared column is null does not match, so {@code notEqual("x", 5)} leaves out rows where
   * {@code x} is null.
   *
   * @param rowFilter an Iceberg expression, for example {@code Expressions.equal("country", "FR")}
   * @return a new reader
   */
  public ArrowTableReader filter(Expression rowFilter) {
    return new ArrowTableReader(scan.filter(SqlNulls.nullsNeverMatch(rowFilter)), selectedColumns, batchSize,
        nativeReads, planner);
  }

  /**
   * Returns a reader of only some columns. The Arrow columns follow the table's column order, not
   * the order given; a nested field can be named with a dotted path ({@code "address.zip"}), which
   * keeps the enclosing struct with only that field.
   *
   * @param columns column names
   * @return a new reader
   */
  public ArrowTableReader select(String... columns) {
    return select(Arrays.asList(columns));
  }

  /**
   * Returns a reader of only some columns; see {@link #select(String...)}.
   *
   * @param columns column names
   * @return a new reader
   */
  public ArrowTableReader select(Collection<String> columns) {
    List<String> selected = List.copyOf(columns);
    return new ArrowTableReader(scan.select(selected), selected, batchSize, nativeReads, planner);
  }

  /**
   * Returns a reader of a given snapshot (time travel).
   *
   * @param snapshotId the snapshot id
   * @return a new reader
   * @throws IllegalArgumentException if the table has no such snapshot
   */
  public ArrowTableReader useSnapshot(long snapshotId) {
    return new ArrowTableReader(scan.useSnapshot(snapshotId), selectedColumns, batchSize, nativeReads, planner);
  }

  /**
   * Returns a reader of the head of a branch, or of a tag.
   *
   * @param ref a branch or tag name
   * @return a new reader
   * @throws IllegalArgumentException if the table has no such branch or tag
   */
  public ArrowTableReader useRef(String ref) {
    return new ArrowTableReader(scan.useRef(ref), selectedColumns, batchSize, nativeReads, planner);
  }

  /**
   * Returns a reader of the snapshot that was current at a point in time.
   *
   * @param timestampMillis milliseconds since the epoch
   * @return a new reader
   * @throws IllegalArgumentException if the table had no snapshot then
   */
  public ArrowTableReader asOfTime(long timestampMillis) {
    return new ArrowTableReader(scan.asOfTime(timestampMillis), selectedColumns, batchSize, nativeReads, planner);
  }

  /**
   * Returns a reader that matches column names in the filter and selection with or without regard
   * to case. Readers are case-sensitive unless told otherwise.
   *
   * @param caseSensitive whether names must match exactly
   * @return a new reader
   */
  public ArrowTableReader caseSensitive(boolean caseSensitive) {
    return new ArrowTableReader(scan.caseSensitive(caseSensitive), selectedColumns, batchSize, nativeReads, planner);
  }

  /**
   * Returns a reader whose {@link #readAll} may (the default) or may not hand the read to the engine's
   * Parquet page decoder, which decodes the files' pages into Arrow on two threads, in Java. It reads
   * only when the reader has no row filter, the snapshot's data files are local Parquet files with no
   * equality delete against them (position deletes and deletion vectors are applied to what it decoded)
   * and its columns are flat, of primitive types, in pages it decodes; the root is then the same as this
   * reader's own (schema, field ids, values, rows in file order), only faster to produce.
   *
   * @param enabled whether the page decoder may read
   * @return a new reader
   */
  public ArrowTableReader withNativeReads(boolean enabled) {
    return new ArrowTableReader(scan, selectedColumns, batchSize, enabled, planner);
  }

  /**
   * Returns a reader whose reads are planned by another read planner than the standard one: for tests
   * and benchmarks that force one strategy or count reads of their own ({@code ReadPlanner} is internal
   * and may change in any release).
   *
   * @param planner the planner
   * @return a new reader
   * @throws NullPointerException if {@code planner} is null
   */
  public ArrowTableReader withPlanner(ReadPlanner planner) {
    return new ArrowTableReader(scan, selectedColumns, batchSize, nativeReads,
        Objects.requireNonNull(planner, "planner"));
  }

  /**
   * Returns a reader whose {@link #openBatches} batches hold at most this many rows.
   *
   * @param rowsPerBatch the number of rows per batch, at least 1; default {@value
   *     #DEFAULT_BATCH_SIZE}
   * @return a new reader
   * @throws IllegalArgumentException if {@code rowsPerBatch} is less than 1
   */
  public ArrowTableReader batchSize(int rowsPerBatch) {
    if (rowsPerBatch < 1) {
      throw new IllegalArgumentException("Rows per batch must be at least 1: " + rowsPerBatch);
    }
    return new ArrowTableReader(scan, selectedColumns, rowsPerBatch, nativeReads, planner);
  }

  /**
   * Returns the Iceberg schema of the rows read: the selected columns, or all columns.
   *
   * @return the projected Iceberg schema
   * @throws IllegalArgumentException naming every selected column the table does not have
   */
  public Schema projectedSchema() {
    Schema scanned = scan.schema();
    if (selectedColumns == null) {
      return scanned;
    }
    boolean caseSensitive = scan.isCaseSensitive();
    List<String> unknown = new ArrayList<>();
    for (String column : selectedColumns) {
      Object field =
          caseSensitive ? scanned.findField(column) : scanned.caseInsensitiveFindField(column);
      if (field == null) {
        unknown.add("'" + column + "'");
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot select %s from table %s: no such column (names are %s); columns: %s",
              String.join(", ", unknown),
              scan.table().name(),
              caseSensitive ? "case-sensitive" : "not case-sensitive",
              scan.table().schema().columns().stream()
                  .map(Types.NestedField::name)
                  .collect(Collectors.joining(", "))));
    }
    return caseSensitive
        ? scanned.select(selectedColumns)
        : scanned.caseInsensitiveSelect(selectedColumns);
  }

  /**
   * Returns the Arrow schema of the rows read, with Iceberg field ids in the field metadata.
   *
   * @return the Arrow schema
   * @throws dev.transforms.api.UnsupportedTypeException if a selected column has a type without an Arrow counterpart
   * @throws IllegalArgumentException if a selected column does not exist
   */
  public org.apache.arrow.vector.types.pojo.Schema schema() {
    return ArrowSchemas.toArrow(projectedSchema());
  }

  /**
   * Reads every matching row into one root. Suits data that fits in memory; for more, use {@link
   * #openBatches}.
   *
   * @param allocator the allocator for the root's memory
   * @return a new root holding all rows; the caller owns it and must close it
   * @throws dev.transforms.api.UnsupportedTypeException if a selected column has a type without an Arrow counterpart
   * @throws IllegalArgumentException if a selected column does not exist
   * @throws org.apache.iceberg.exceptions.ValidationException if the filter names a column that
   *     does not exist
   * @throws TransformsException if the rows do not fit in one root (more than {@code
   *     Integer.MAX_VALUE - 1} rows)
   * @throws UncheckedIOException if a data or delete file cannot be read
   * @throws org.apache.arrow.memory.OutOfMemoryException if the allocator's limit is reached
   */
  public VectorSchemaRoot readAll(BufferAllocator allocator) {
    Schema projected = projectedSchema();
    ReadPlan plan = planner.plan(scan, projected, nativeReads, PageDecoderRead.INSTANCE);
    return ReadChain.run(plan, scan.table().name(), allocator, () -> readWithEngine(projected, allocator));
  }

  private VectorSchemaRoot readWithEngine(Schema projected, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(projected), allocator);
    try (ScanRecords records = new ScanRecords(scan)) {
      // Size the vectors for the rows of the files read, capped: deletes and filters may drop most.
      allocate(root, (int) Math.max(1, Math.min(records.maxRowCount(), MAX_INITIAL_ROWS)));
      ArrowValueWriters.RowWriter writer =
          new ArrowValueWriters.RowWriter(
              root, projected.asStruct(), records.projection().asStruct());
      int rowCount = 0;
      while (records.hasNext()) {
        if (rowCount == Integer.MAX_VALUE - 1) {
          throw new TransformsException(
              "Table "
                  + scan.table().name()
                  + " has too many rows for one Arrow root; read it in batches with openBatches");
        }
        Record record = records.next();
        writer.write(rowCount, record);
        rowCount += 1;
      }
      root.setRowCount(rowCount);
      return root;
    } catch (IOException e) {
      root.close();
      throw new UncheckedIOException("Cannot read table " + scan.table().name(), e);
    } catch (RuntimeException | Error e) {
      root.close();
      throw e;
    }
  }

  /**
   * Opens a reader of the matching rows in batches of at most {@link #batchSize} rows, for tables
   * larger than memory. Only one batch is in memory at a time, in a root that the reader reuses.
   *
   * <pre>{@code
   * try (ArrowBatchReader batches = ArrowTableReader.of(table).openBatches(allocator)) {
   *   VectorSchemaRoot batch = batches.getVectorSchemaRoot();
   *   while (batches.loadNextBatch()) {
   *     ... use batch, which is overwritten by the next loadNextBatch()
   *   }
   * }
   * }</pre>
   *
   * @param allocator the allocator for the batches' memory
   * @return a batch reader; the caller must close it, which frees its root. The scan's files are
   *     planned now; they are opened one after the other as batches are loaded
   * @throws UncheckedIOException if the table's manifests cannot be read
   * @throws dev.transforms.api.UnsupportedTypeException if a selected column has a type without an Arrow counterpart
   * @throws IllegalArgumentException if a selected column does not exist
   * @throws org.apache.iceberg.exceptions.ValidationException if the filter names a column that
   *     does not exist
   */
  public ArrowBatchReader openBatches(BufferAllocator allocator) {
    Schema projected = projectedSchema();
    boolean decoded = planner.plan(scan, projected, nativeReads, PageDecoderRead.INSTANCE).strategy()
        == ReadStrategy.PAGE_DECODER;
    return new ArrowBatchReader(allocator, ArrowSchemas.toArrow(projected), projected, new ScanRecords(scan),
        batchSize, decoded ? planner : null);
  }

  static void allocate(VectorSchemaRoot root, int rows) {
    for (FieldVector vector : root.getFieldVectors()) {
      vector.setInitialCapacity(rows);
      vector.allocateNew();
    }
  }
}
