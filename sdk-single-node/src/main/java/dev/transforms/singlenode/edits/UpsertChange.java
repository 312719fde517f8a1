package dev.transforms.singlenode.edits;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;

/**
 * Matches source rows to table rows by their join key: the change behind {@link RowEdits#upsert}.
 *
 * <p>Semantics, per source row {@code s} with key {@code k}:
 *
 * <ul>
 *   <li>no live table row has key {@code k}: {@code s} is inserted (unless inserts are skipped);
 *   <li>otherwise, when updates are not skipped and one live table row has key {@code k}: that row
 *       is replaced by {@code s} when it differs from {@code s} in some column, and {@code s} counts
 *       as updated; a row equal to {@code s} is left alone and counted nowhere;
 *   <li>when several live table rows have key {@code k} and updates are not skipped: the change
 *       fails after the scan, naming up to ten such keys, so nothing is committed (as PyIceberg's
 *       upsert fails); with {@link UpsertOptions#updateEveryMatchingRow()}, every one of them that
 *       differs from {@code s} is replaced by a copy of {@code s} and counts as updated, as SQL
 *       {@code MERGE} updates every matching target row. No row is ever dropped without a
 *       replacement.
 * </ul>
 */
final class UpsertChange extends RowChange {
  /** At most this many duplicated target keys are named in the error. */
  private static final int MAX_KEYS_SHOWN = 10;

  private final Schema schema;
  private final JoinKeys keys;
  private final Map<Object, Match> source;
  private final boolean update;
  private final boolean insert;
  private final boolean everyMatchingRow;
  private final String tableName;
  private final JoinKeys.KeyRanges ranges;
  private final Expression keyFilter;
  private final Set<Integer> joinIds;
  private boolean equalityDeletes = false;
  private long rowsUpdated = 0;
  private long rowsInserted = 0;

  UpsertChange(
      Schema schema,
      JoinKeys keys,
      Map<Object, Record> index,
      UpsertOptions options,
      String tableName) {
    this.schema = schema;
    this.keys = keys;
    this.source = new LinkedHashMap<>(Math.max(16, index.size() * 2));
    index.forEach((key, row) -> source.put(key, new Match(row)));
    this.update = options.whenMatchedUpdateAll();
    this.insert = options.whenNotMatchedInsertAll();
    this.everyMatchingRow = options.updateEveryMatchingRow();
    this.tableName = tableName;
    this.ranges = keys.ranges(index.keySet());
    this.keyFilter = index.isEmpty() ? Expressions.alwaysFalse() : ranges.filter();
    this.joinIds = new HashSet<>();
    for (int id : keys.fieldIds()) {
      joinIds.add(id);
    }
  }

  @Override
  String operation() {
    return "upsert";
  }

  @Override
  Expression scanFilter() {
    return keyFilter;
  }

  @Override
  Expression conflictFilter() {
    return keyFilter.op() == Expression.Operation.FALSE ? Expressions.alwaysTrue() : keyFilter;
  }

  @Override
  Set<Integer> requiredFieldIds() {
    return update ? null : joinIds;
  }

  @Override
  boolean mightAffect(DataFile file) {
    return ranges.mightContainKeys(file);
  }

  /** Only rows whose join key is one of the source's can be updated or noted as matched. */
  @Override
  RowProbe probe(Schema readSchema) {
    int[] positions = keys.positionsIn(readSchema.asStruct());
    LongHashSet integral = integralKeys();
    return new RowProbe() {
      @Override
      public LongHashSet integralKeys() {
        return integral;
      }

      @Override
      public int[] columns() {
        return positions;
      }

      @Override
      public boolean mightConcern(Record row) {
        Object key = keys.keyOf(row, positions);
        return key != null && source.containsKey(key);
      }
    };
  }

  /** The source's keys as longs when the join key is one int or long column; otherwise null. */
  private LongHashSet integralKeys() {
    if (keys.fieldIds().length != 1) {
      return null;
    }
    org.apache.iceberg.types.Type.TypeID type = schema.findType(keys.fieldIds()[0]).typeId();
    if (type != org.apache.iceberg.types.Type.TypeID.LONG
        && type != org.apache.iceberg.types.Type.TypeID.INTEGER) {
      return null;
    }
    long[] values = new long[source.size()];
    int i = 0;
    for (Object key : source.keySet()) {
      values[i++] = ((Number) key).longValue();
    }
    return LongHashSet.of(values);
  }

  @Override
  RowDecider decider(Schema readSchema, DataFile file) {
    return new FileDecider(readSchema, file);
  }

  /**
   * The verdicts on the rows of one data file: a row whose key the source has is replaced when it
   * differs from its source row and noted as equal otherwise. One table column that differs settles
   * it ({@link EarlyDrop}); the read schema starts with the table's columns, in order, as the
   * comparison of whole rows expects.
   */
  private final class FileDecider implements RowDecider, EarlyDrop {
    private final DataFile file;
    private final int[] positions; // the join columns' places in the read schema
    private final int rowIdPosition;
    private final Types.StructType tableStruct;
    private final boolean[] tableColumn; // whether a read column is the table's column at that place

    private FileDecider(Schema readSchema, DataFile file) {
      this.file = file;
      this.positions = keys.positionsIn(readSchema.asStruct());
      this.rowIdPosition =
          readSchema.columns().indexOf(readSchema.findField(MetadataColumns.ROW_ID.fieldId()));
      this.tableStruct = schema.asStruct();
      List<Types.NestedField> readColumns = readSchema.columns();
      List<Types.NestedField> tableColumns = tableStruct.fields();
      this.tableColumn = new boolean[readColumns.size()];
      for (int i = 0; i < Math.min(readColumns.size(), tableColumns.size()); i++) {
        tableColumn[i] = readColumns.get(i).fieldId() == tableColumns.get(i).fieldId();
      }
    }

    /** The source row with the row's key and what the scan saw of it, or null. */
    private Match matchOf(Record row) {
      Object key = keys.keyOf(row, positions);
      return key == null ? null : source.get(key);
    }

    @Override
    public boolean drop(Record row) {
      Match match = matchOf(row);
      if (match == null) {
        return false;
      }
      boolean same = update && Values.sameStruct(tableStruct, row, match.row);
      // files are rewritten two at a time: a key the table holds in two files is counted by both
      synchronized (match) {
        if (!update) {
          match.equalSeen = true; // matched: the row is neither inserted nor changed
          return false;
        } else if (same) {
          match.equalSeen = true;
          match.equalCount += 1;
          if (equalityDeletes) {
            match.equalIn(file);
          }
          return false;
        }
        if (rowIdPosition >= 0) {
          match.rowIds.add((Long) row.get(rowIdPosition));
        }
        match.differentSeen = true;
        match.differentCount += 1;
        return true;
      }
    }

    /** Without updates no row is dropped, so no column settles one. */
    @Override
    public EarlyDrop earlyDrop() {
      return update ? this : null;
    }

    @Override
    public boolean settles(Record row, int column, Object value) {
      if (!tableColumn[column]) {
        return false;
      }
      Match match = matchOf(row);
      return match != null
          && !Values.sameValue(tableStruct.fields().get(column).type(), value, match.row.get(column));
    }
  }

  @Override
  void reset(boolean useEqualityDeletes) {
    this.equalityDeletes = useEqualityDeletes;
    rowsUpdated = 0;
    rowsInserted = 0;
    for (Match match : source.values()) {
      match.equalSeen = false;
      match.differentSeen = false;
      match.equalCount = 0;
      match.differentCount = 0;
      match.rowIds.clear();
      match.equalFiles = null;
    }
  }

  /**
   * Adds updated rows with the lineage id of the row they replace (none with equality deletes,
   * which by the spec end a row's lineage) and inserted rows as new.
   *
   * <p>With equality deletes, the delete for a changed key also removes the copies of the key that
   * equal the source row, so the source row is written in any case, and the files where such copies
   * were seen get the key's delete too: then every table holds one copy of the key, as with
   * position deletes. (Only tables that already hold duplicate keys have such copies.)
   */
  @Override
  long addRows(NewRows out) {
    if (update && !everyMatchingRow) {
      failOnDuplicateTargetKeys();
    }
    long added = 0;
    for (Match match : source.values()) {
      if (match.differentSeen && equalityDeletes) {
        // the key's equality delete removes its equal copies too: write them all again
        rowsUpdated += everyMatchingRow ? match.differentCount : 1;
        if (match.equalFiles != null) {
          match.equalFiles.forEach(file -> out.deleteEqual(file, match.row));
        }
        int copies = everyMatchingRow ? match.differentCount + match.equalCount : 1;
        for (int i = 0; i < copies; i += 1) {
          out.add(match.row, null);
        }
        added += copies;
      } else if (match.differentSeen) {
        rowsUpdated += match.differentCount;
        for (int i = 0; i < match.differentCount; i += 1) {
          out.add(match.row, i < match.rowIds.size() ? match.rowIds.get(i) : null);
        }
        added += match.differentCount;
      } else if (!match.equalSeen && insert) {
        rowsInserted += 1;
        out.add(match.row, null);
        added += 1;
      }
    }
    return added;
  }

  /** The decider reads row lineage ids, to carry them to updated rows. */
  @Override
  boolean needsRowIds() {
    return update;
  }

  @Override
  int[] equalityFieldIds() {
    return keys.fieldIds();
  }

  /**
   * Throws when some source key matched more than one live table row, naming up to ten such keys:
   * which of the rows to keep is not the upsert's to guess.
   */
  private void failOnDuplicateTargetKeys() {
    int[] positions = keys.positionsIn(schema.asStruct());
    List<String> shown = new ArrayList<>();
    int duplicated = 0;
    for (Match match : source.values()) {
      int rows = match.equalCount + match.differentCount;
      if (rows > 1) {
        duplicated += 1;
        if (shown.size() < MAX_KEYS_SHOWN) {
          shown.add(keys.show(match.row, positions) + " (" + rows + " rows)");
        }
      }
    }
    if (duplicated == 0) {
      return;
    }
    String more =
        duplicated > shown.size() ? " and " + (duplicated - shown.size()) + " more keys" : "";
    throw new InvalidRowEditException(
        String.format(
            "Upsert into table %s matched keys that the table holds in more than one row, on join"
                + " columns %s: %s%s. Nothing was changed; deduplicate the table, or pass"
                + " UpsertOptions.builder().updateEveryMatchingRow(true) to replace every matching"
                + " row, as SQL MERGE does",
            tableName, keys.names(), String.join(", ", shown), more));
  }

  long rowsUpdated() {
    return rowsUpdated;
  }

  long rowsInserted() {
    return rowsInserted;
  }

  /** A source row and what the scan saw for its key. */
  private static final class Match {
    private final Record row;
    private boolean equalSeen;
    private boolean differentSeen;
    private int equalCount;
    private int differentCount;
    private final List<Long> rowIds = new ArrayList<>(1);
    private List<DataFile> equalFiles;

    private Match(Record row) {
      this.row = row;
    }

    private void equalIn(DataFile file) {
      if (equalFiles == null) {
        equalFiles = new ArrayList<>(1);
      }
      equalFiles.add(file);
    }
  }
}
