// Over 400 lines: the public face of row edits, each operation with its Javadoc and Arrow and
// string-filter variants; the work is done by EditOperation and the classes it hands files to.
package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.Changelog;

import dev.transforms.singlenode.StagedOutputTable;
import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.filter.RowFilter;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * Row-level edits of an Iceberg table without Spark: {@link #upsert upsert}, {@link #delete
 * delete}, {@link #overwrite overwrite} and {@link #append append}, as PyIceberg's {@code Table}
 * offers them.
 *
 * <pre>{@code
 * RowEdits edits = RowEdits.on(table).withSnapshotProperties(Map.of("job", "nightly"));
 * UpsertResult result = edits.upsert(rows, List.of("id"));
 * long deleted = edits.delete(Expressions.lessThan("day", "2024-01-01"));
 * }</pre>
 *
 * <h2>Semantics</h2>
 *
 * <ul>
 *   <li><b>Atomic</b>: each operation is one Iceberg commit, one snapshot; readers see all of it or
 *       none of it. An operation that changes nothing commits nothing.
 *   <li><b>Serializable</b>: an operation reads the head snapshot of its branch and commits with
 *       validation from that snapshot: if a concurrent commit added data files that could hold rows
 *       the operation would have matched, deleted rows it deletes or rewrites, or removed files it
 *       references, the commit fails. The operation is then retried from the new head (re-planned,
 *       re-read, re-written), up to {@link #withMaxAttempts(int) a bounded number of attempts},
 *       after which {@link RowEditConflictException} is thrown and nothing is committed.
 *   <li><b>Write modes</b>: {@code delete} and {@code overwrite} follow the table property {@code
 *       write.delete.mode}, {@code upsert} follows {@code write.merge.mode} (there is no separate
 *       update operation, so {@code write.update.mode} is not consulted). Copy-on-write rewrites
 *       the data files that lose rows; merge-on-read writes position deletes (format v2), deletion
 *       vectors (format v3), or equality deletes when the table property {@value
 *       #DELETE_KIND_PROPERTY} is {@code equality}. Format v1 tables always use copy-on-write.
 *   <li><b>Input checks</b>: bad input (see each method) is rejected with {@link
 *       InvalidRowEditException} before anything is written; the table is unchanged.
 * </ul>
 *
 * <p>Rows are generic {@link Record}s whose fields match the table's columns by name and type;
 * build them with {@code GenericRecord.create(table.schema())}. Filters are Iceberg {@link
 * Expression}s over the table's columns (case-sensitive names). A row matches a filter when the
 * filter is true for it under SQL's three-valued logic: a comparison with a null value is unknown,
 * so {@code delete(notEqual("x", 5))} keeps the rows where {@code x} is null, and so does {@code
 * delete(not(equal("x", 5)))}; {@code isNull("x")} selects them.
 *
 * <p>Instances are immutable and cheap; the {@code on...}/{@code with...} methods return new ones.
 * An instance may be shared by threads, but the {@link Table} it wraps is refreshed on retries.
 */
public final class RowEdits {
  /**
   * Table property that selects how merge-on-read edits mark rows deleted: {@code position} (the
   * default: position delete files in format v2, deletion vectors in format v3; cheapest to read)
   * or {@code equality} (equality delete files: on the join columns for an upsert, on the table's
   * identifier fields for delete and overwrite, which fall back to position deletes when the table
   * has none).
   */
  public static final String DELETE_KIND_PROPERTY = "transforms.merge-on-read.delete-kind";

  /** How many times an operation is attempted before it gives up on conflicts: {@value}. */
  public static final int DEFAULT_MAX_ATTEMPTS = 4;

  private final Table table;
  private final String branch;
  private final Map<String, String> snapshotProperties;
  private final int maxAttempts;
  private final Runnable beforeCommit;
  private final int copyBufferRows;
  private final RewritePlanner rewrites;
  /** Tells the build that an edit of its output completed, when it made no snapshot to show it. */
  private final Runnable edited;

  private RowEdits(Table table, String branch, Map<String, String> snapshotProperties, int maxAttempts,
      Runnable beforeCommit, int copyBufferRows, RewritePlanner rewrites, Runnable edited) {
    this.table = table;
    this.branch = branch;
    this.snapshotProperties = snapshotProperties;
    this.maxAttempts = maxAttempts;
    this.beforeCommit = beforeCommit;
    this.copyBufferRows = copyBufferRows;
    this.rewrites = rewrites;
    this.edited = edited;
  }

  /**
   * Returns row edits of a table, committing to its {@code main} branch, or, for the table an
   * {@code IcebergOutput} hands out during a build ({@link StagedOutputTable}), to the build's staging
   * branch with the build's snapshot properties.
   *
   * @param table the table to edit
   * @return row edits of the table
   * @throws NullPointerException if {@code table} is null
   */
  public static RowEdits on(Table table) {
    Objects.requireNonNull(table, "table");
    if (table instanceof StagedOutputTable staged) {
      // An output during a build: edit its staging branch, stamped like every write of the build.
      RowEdits edits = on(staged.baseTable()).onBranch(staged.stagingBranch())
          .withSnapshotProperties(staged.snapshotProperties());
      return new RowEdits(edits.table, edits.branch, edits.snapshotProperties, edits.maxAttempts, edits.beforeCommit,
          edits.copyBufferRows, edits.rewrites, staged::edited);
    }
    return new RowEdits(table, null, Collections.emptyMap(), DEFAULT_MAX_ATTEMPTS, null,
        CopyOnWriteRewrite.DEFAULT_COPY_BUFFER_ROWS, RewritePlanner.standard(), () -> { });
  }

  /**
   * Returns row edits that read the head of {@code branch} and commit to it. A branch that does not
   * exist yet starts from the head of {@code main} and is created by the first commit.
   *
   * @param branchName the branch to read and commit to
   * @return row edits on that branch
   * @throws IllegalArgumentException if the name is blank or names a tag
   */
  public RowEdits onBranch(String branchName) {
    if (branchName == null || branchName.isBlank()) {
      throw new IllegalArgumentException("Branch name must not be blank");
    } else if (table.refs().containsKey(branchName) && table.refs().get(branchName).isTag()) {
      throw new IllegalArgumentException(
          String.format(
              "'%s' is a tag of table %s, not a branch; commits can only go to a branch",
              branchName, table.name()));
    }
    return new RowEdits(table, branchName, snapshotProperties, maxAttempts, beforeCommit, copyBufferRows, rewrites, edited);
  }

  /**
   * Returns row edits that stamp these properties on every snapshot they commit (replacing any set
   * before).
   *
   * @param properties snapshot summary properties, such as a job id
   * @return row edits with the properties
   * @throws NullPointerException if the map, a key or a value is null
   */
  public RowEdits withSnapshotProperties(Map<String, String> properties) {
    Objects.requireNonNull(properties, "properties");
    Map<String, String> copy = new LinkedHashMap<>();
    properties.forEach(
        (key, value) ->
            copy.put(
                Objects.requireNonNull(key, "property key"),
                Objects.requireNonNull(value, "value of snapshot property " + key)));
    return new RowEdits(table, branch, Collections.unmodifiableMap(copy), maxAttempts, beforeCommit, copyBufferRows,
        rewrites, edited);
  }

  /**
   * Returns row edits that attempt each operation at most {@code attempts} times when commits
   * conflict with concurrent writers (default {@value #DEFAULT_MAX_ATTEMPTS}).
   *
   * @param attempts the attempt bound, at least 1
   * @return row edits with that bound
   * @throws IllegalArgumentException if {@code attempts} is below 1
   */
  public RowEdits withMaxAttempts(int attempts) {
    if (attempts < 1) {
      throw new IllegalArgumentException("Max attempts must be at least 1, not " + attempts);
    }
    return new RowEdits(table, branch, snapshotProperties, attempts, beforeCommit, copyBufferRows, rewrites, edited);
  }

  /** Test hook: runs just before each commit, to inject a concurrent change. */
  RowEdits beforeEachCommit(Runnable hook) {
    return new RowEdits(table, branch, snapshotProperties, maxAttempts, hook, copyBufferRows, rewrites, edited);
  }

  /**
   * Returns row edits whose copy-on-write rewrites are planned by another rewrite planner than the
   * standard one: for tests and benchmarks that force one strategy or count rewrites of their own
   * ({@code RewritePlanner} is internal and may change in any release).
   *
   * @param planner the planner
   * @return row edits planned by it
   * @throws NullPointerException if {@code planner} is null
   */
  public RowEdits withPlanner(RewritePlanner planner) {
    return new RowEdits(table, branch, snapshotProperties, maxAttempts, beforeCommit, copyBufferRows,
        Objects.requireNonNull(planner, "planner"), edited);
  }

  /** Test hook: how many rows of a file copy-on-write holds before its first dropped row. */
  RowEdits withCopyBufferRows(int rows) {
    return new RowEdits(table, branch, snapshotProperties, maxAttempts, beforeCommit, rows, rewrites, edited);
  }

  /**
   * Returns the table these edits apply to.
   *
   * @return the table
   */
  public Table table() {
    return table;
  }

  /**
   * Appends rows in one commit. Appending no rows commits nothing.
   *
   * @param rows the rows to append, fitting the table's schema
   * @return the number of rows appended
   * @throws InvalidRowEditException if a row does not fit the table's schema (the message lists the
   *     row's and the table's fields) or lacks a value for a required column
   * @throws RowEditConflictException if the catalog kept refusing the commit
   */
  public long append(Iterable<Record> rows) {
    Schema schema = table.schema();
    List<Record> conformed = SourceRows.conform(rows, schema, table.name());
    long appended = conformed.isEmpty() ? 0 : engine().append(conformed).rowsAdded();
    edited.run();
    return appended;
  }

  /**
   * Deletes the rows that match a filter, in one commit. When no row matches, nothing is committed.
   * Data files whose partition values or column metrics show that all their rows match are removed
   * without being read.
   *
   * @param filter which rows to delete, over the table's columns
   * @return the number of rows deleted
   * @throws InvalidRowEditException if the filter names a column the table does not have
   * @throws RowEditConflictException if concurrent commits kept conflicting with this delete
   */
  public long delete(Expression filter) {
    Schema schema = table.schema();
    EditArguments.checkFilter(table, filter, schema, "delete");
    FilterChange change = new FilterChange("delete", schema, filter, List.of());
    long deleted = engine().apply(change, EditArguments.mode(table, TableProperties.DELETE_MODE)).rowsDeleted();
    edited.run();
    return deleted;
  }

  /**
   * Deletes the rows that match a filter and appends rows, in one commit (one snapshot). The new
   * rows are appended whether or not they match the filter. When no row matches and no row is
   * given, nothing is committed.
   *
   * @param rows the rows to append, fitting the table's schema
   * @param filter which existing rows to delete
   * @return the number of rows deleted and appended, and the snapshot
   * @throws InvalidRowEditException if the filter names an unknown column or a row does not fit the
   *     table's schema
   * @throws RowEditConflictException if concurrent commits kept conflicting with this overwrite
   */
  public OverwriteResult overwrite(Iterable<Record> rows, Expression filter) {
    Schema schema = table.schema();
    EditArguments.checkFilter(table, filter, schema, "overwrite");
    List<Record> conformed = SourceRows.conform(rows, schema, table.name());
    FilterChange change = new FilterChange("overwrite", schema, filter, conformed);
    EditOperation.Outcome outcome = engine().apply(change, EditArguments.mode(table, TableProperties.DELETE_MODE));
    edited.run();
    return new OverwriteResult(outcome.rowsDeleted(), outcome.rowsAdded(), outcome.snapshotId());
  }

  /**
   * Replaces every row of the table (of the branch) with the given rows, in one commit: {@link
   * #overwrite(Iterable, Expression)} with a filter that matches every row.
   *
   * @param rows the rows the table holds afterwards
   * @return the number of rows deleted and appended, and the snapshot
   * @throws InvalidRowEditException if a row does not fit the table's schema
   * @throws RowEditConflictException if concurrent commits kept conflicting with this overwrite
   */
  public OverwriteResult overwrite(Iterable<Record> rows) {
    return overwrite(rows, Expressions.alwaysTrue());
  }

  /**
   * Upserts rows by their join columns, in one commit: a source row whose key matches a table row
   * replaces it when they differ in some column; a source row with a new key is inserted. Rows
   * equal to their table row are not rewritten and not counted.
   *
   * <p>When the table holds a matched key in more than one row, the upsert fails (as PyIceberg's
   * does) unless {@link UpsertOptions#updateEveryMatchingRow()} asks for SQL {@code MERGE}'s answer.
   *
   * @param rows the source rows, fitting the table's schema, each key at most once
   * @param joinColumns the columns that identify a row, such as {@code List.of("id")}; an empty
   *     list means the table's identifier fields
   * @return the number of rows updated and inserted, and the snapshot
   * @throws InvalidRowEditException if the join column list is empty and the table has no identifier
   *     fields, names a column the table does not have, a source row has a null join value or does
   *     not fit the table's schema, two source rows share a key (the message names up to five such
   *     keys), or several table rows share a matched key (the message names up to ten)
   * @throws RowEditConflictException if concurrent commits kept conflicting with this upsert
   */
  public UpsertResult upsert(Iterable<Record> rows, List<String> joinColumns) {
    return upsert(rows, joinColumns, UpsertOptions.defaults());
  }

  /**
   * Upserts rows by their join columns, running the halves the options ask for; see {@link
   * #upsert(Iterable, List)}.
   *
   * @param rows the source rows, fitting the table's schema, each key at most once
   * @param joinColumns the columns that identify a row
   * @param options whether to update matched rows and whether to insert unmatched ones
   * @return the number of rows updated and inserted, and the snapshot
   * @throws InvalidRowEditException if the join column list is empty, names a column the table does
   *     not have, a source row has a null join value or does not fit the table's schema, or two
   *     source rows share a key
   * @throws RowEditConflictException if concurrent commits kept conflicting with this upsert
   */
  public UpsertResult upsert(
      Iterable<Record> rows, List<String> joinColumns, UpsertOptions options) {
    Objects.requireNonNull(options, "options");
    Schema schema = table.schema();
    JoinKeys keys = JoinKeys.resolve(schema, joinColumns, table.name(), options.caseSensitive());
    List<Record> conformed = SourceRows.conform(rows, schema, table.name());
    Map<Object, Record> index = keys.index(conformed, schema, table.name());
    if (index.isEmpty()
        || (!options.whenMatchedUpdateAll() && !options.whenNotMatchedInsertAll())) {
      edited.run();
      return new UpsertResult(0, 0, null);
    }

    UpsertChange change = new UpsertChange(schema, keys, index, options, table.name());
    EditOperation.Outcome outcome = engine().apply(change, EditArguments.mode(table, TableProperties.MERGE_MODE));
    edited.run();
    return new UpsertResult(change.rowsUpdated(), change.rowsInserted(), outcome.snapshotId());
  }

  /**
   * Upserts rows by the table's identifier fields, as PyIceberg's {@code upsert} does without
   * {@code join_cols}; see {@link #upsert(Iterable, List)}.
   *
   * @param rows the source rows, fitting the table's schema, each key at most once
   * @return the number of rows updated and inserted, and the snapshot
   * @throws InvalidRowEditException if the table has no identifier fields (the message says how to
   *     declare them or to pass join columns), or for the reasons {@link #upsert(Iterable, List)}
   *     gives
   */
  public UpsertResult upsert(Iterable<Record> rows) {
    return upsert(rows, List.of(), UpsertOptions.defaults());
  }

  /**
   * Upserts rows by the table's identifier fields, running the halves the options ask for; see
   * {@link #upsert(Iterable)} and {@link #upsert(Iterable, List, UpsertOptions)}.
   *
   * @param rows the source rows, fitting the table's schema, each key at most once
   * @param options the upsert's options
   * @return the number of rows updated and inserted, and the snapshot
   */
  public UpsertResult upsert(Iterable<Record> rows, UpsertOptions options) {
    return upsert(rows, List.of(), options);
  }

  /**
   * Appends Arrow rows in one commit; see {@link #append(Iterable)}.
   *
   * @param data the rows; columns match the table's by name
   * @return the number of rows appended
   * @throws dev.transforms.api.SchemaMismatchException if the data's schema does not fit
   *     the table's (the message lists every differing field)
   */
  public long append(VectorSchemaRoot data) {
    return append(records(data));
  }

  /**
   * Deletes the rows matching a filter in PyIceberg's string syntax, such as
   * {@code "as_of < '2026-04-01'"}; see {@link #delete(Expression)}.
   *
   * @param filter the row filter; literals are typed by their column
   * @return the number of rows deleted
   * @throws dev.transforms.singlenode.filter.FilterSyntaxException if the filter does not parse
   *     (pointing at the position) or names an unknown column
   */
  public long delete(String filter) {
    return delete(RowFilter.parse(filter, table.schema()));
  }

  /**
   * Deletes the rows matching a filter string and appends Arrow rows, in one commit; see
   * {@link #overwrite(Iterable, Expression)}.
   *
   * <pre>{@code
   * try (VectorSchemaRoot stale = edits.scan("status = 'Stale'", allocator)) {
   *   ...set every status to "Archived"...
   *   edits.overwrite(stale, "status = 'Stale'");
   * }
   * }</pre>
   *
   * @param data the rows to append; columns match the table's by name
   * @param filter which existing rows to delete, in PyIceberg's string syntax
   * @return the number of rows deleted and appended, and the snapshot
   */
  public OverwriteResult overwrite(VectorSchemaRoot data, String filter) {
    return overwrite(records(data), RowFilter.parse(filter, table.schema()));
  }

  /**
   * Upserts Arrow rows by their join columns; see {@link #upsert(Iterable, List)}.
   *
   * @param data the source rows, each key at most once; columns match the table's by name
   * @param joinColumns the columns that identify a row, such as {@code List.of("id")}
   * @return the number of rows updated and inserted, and the snapshot
   */
  public UpsertResult upsert(VectorSchemaRoot data, List<String> joinColumns) {
    return upsert(records(data), joinColumns);
  }

  /**
   * Upserts Arrow rows, running the halves the options ask for; see
   * {@link #upsert(Iterable, List, UpsertOptions)}.
   *
   * @param data the source rows
   * @param joinColumns the columns that identify a row
   * @param options whether to update matched rows and whether to insert unmatched ones
   * @return the number of rows updated and inserted, and the snapshot
   */
  public UpsertResult upsert(VectorSchemaRoot data, List<String> joinColumns, UpsertOptions options) {
    return upsert(records(data), joinColumns, options);
  }

  /**
   * Reads the rows matching a filter string into Arrow, from the head of this instance's branch
   * ({@code main} by default), with every delete applied.
   *
   * @param filter the row filter in PyIceberg's string syntax; {@code "true"} for every row
   * @param allocator where the result's memory comes from
   * @return the rows; the caller closes the root
   */
  public VectorSchemaRoot scan(String filter, BufferAllocator allocator) {
    ArrowTableReader reader = ArrowTableReader.of(table).filter(RowFilter.parse(filter, table.schema()));
    if (branch != null && table.refs().containsKey(branch)) {
      reader = reader.useRef(branch);
    }
    return reader.readAll(allocator);
  }

  /**
   * Applies a table's changes to this table by key, as a slowly changing dimension of type 1 or 2:
   * the rows of the keys the changes touch are replaced, in one commit, by what the changes leave of
   * them. See {@link ApplyChanges} for the semantics.
   *
   * <pre>{@code
   * RowEdits.on(dimension).applyChanges(Changelog.of(source).between(last, now), ApplyChanges.scd1("id"));
   * }</pre>
   *
   * @param changes the changes, such as {@code input.changes()}
   * @param how the keys, the type and the sequence column
   * @return what was applied
   */
  public ApplyChanges.AppliedChanges applyChanges(Changelog changes, ApplyChanges how) {
    return how.applyTo(this, changes);
  }

  private List<Record> records(VectorSchemaRoot data) {
    Objects.requireNonNull(data, "data");
    ArrowSchemas.checkWritable(table.schema(), data.getSchema());
    return ArrowRecords.toRecords(data, table.schema());
  }

  private EditOperation engine() {
    return new EditOperation(
        table, branch, snapshotProperties, maxAttempts, beforeCommit, copyBufferRows, rewrites);
  }
}
