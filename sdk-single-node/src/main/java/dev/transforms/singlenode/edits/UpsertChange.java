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
 *   <li>otherwise, when updates are not skipped, every table row with key {@code k} that differs
 *       from {@code s} in some column is deleted, and {@code s} is written unless a row equal to it
 *       remains. {@code s} counts as updated when at least one such row differed;
 *   <li>a table row equal to {@code s} in every column is left alone and counted nowhere.
 * </ul>
 *
 * <p>In a table whose keys are unique (the usual case) this is "replace the row if it changed".
 */
final class UpsertChange extends RowChange {
  private final Schema schema;
  private final JoinKeys keys;
  private final Map<Object, Match> source;
  private final boolean update;
  private final boolean insert;
  private final JoinKeys.KeyRanges ranges;
  private final Expression keyFilter;
  private final Set<Integer> joinIds;
  private boolean equalityDeletes = false;
  private long rowsUpdated = 0;
  private long rowsInserted = 0;

  UpsertChange(Schema schema, JoinKeys keys, Map<Object, Record> index, UpsertOptions options) {
    this.schema = schema;
    this.keys = keys;
    this.source = new LinkedHashMap<>(Math.max(16, index.size() * 2));
    index.forEach((key, row) -> source.put(key, new Match(row)));
    this.update = options.whenMatchedUpdateAll();
    this.insert = options.whenNotMatchedInsertAll();
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
    LongHashSet set = new LongHashSet(source.size());
    for (Object key : source.keySet()) {
      set.add(((Number) key).longValue());
    }
    return set;
  }

  @Override
  RowDecider decider(Schema readSchema, DataFile file) {
    int[] positions = keys.positionsIn(readSchema.asStruct());
    Types.StructType tableStruct = schema.asStruct();
    int rowIdPosition =
        readSchema.columns().indexOf(readSchema.findField(MetadataColumns.ROW_ID.fieldId()));
    return row -> {
      Object key = keys.keyOf(row, positions);
      Match match = key == null ? null : source.get(key);
      if (match == null) {
        return false;
      } else if (!update) {
        match.equalSeen = true; // matched: the row is neither inserted nor changed
        return false;
      } else if (Values.sameStruct(tableStruct, row, match.row)) {
        match.equalSeen = true;
        if (equalityDeletes) {
          match.equalIn(file);
        }
        return false;
      }
      if (!match.differentSeen && rowIdPosition >= 0) {
        match.rowId = (Long) row.get(rowIdPosition);
      }
      match.differentSeen = true;
      return true;
    };
  }

  @Override
  void reset(boolean useEqualityDeletes) {
    this.equalityDeletes = useEqualityDeletes;
    rowsUpdated = 0;
    rowsInserted = 0;
    for (Match match : source.values()) {
      match.equalSeen = false;
      match.differentSeen = false;
      match.rowId = null;
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
    long added = 0;
    for (Match match : source.values()) {
      if (match.differentSeen && equalityDeletes) {
        rowsUpdated += 1;
        if (match.equalFiles != null) {
          match.equalFiles.forEach(file -> out.deleteEqual(file, match.row));
        }
        out.add(match.row, null);
        added += 1;
      } else if (match.differentSeen) {
        rowsUpdated += 1;
        if (!match.equalSeen) {
          out.add(match.row, match.rowId);
          added += 1;
        }
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
    private Long rowId;
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
