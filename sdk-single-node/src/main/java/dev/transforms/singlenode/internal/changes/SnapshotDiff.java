package dev.transforms.singlenode.internal.changes;

import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.internal.plan.ReadChain;
import dev.transforms.singlenode.internal.plan.ReadPlanner;
import dev.transforms.singlenode.internal.read.PageDecoderRead;
import dev.transforms.singlenode.internal.read.LiveRows;
import dev.transforms.singlenode.internal.threads.CallerRunsExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.TypeUtil;

/**
 * The rows one snapshot of a table inserted and deleted, told by the live rows of each data file
 * before and after it: a row (a file and a position) live in the parent and not in the snapshot was
 * deleted; one live in the snapshot and not in the parent was inserted. This holds for every way a
 * row leaves a table: a data file removed (copy-on-write, overwrite, delete), a position delete
 * file, a deletion vector that replaces an older one, an equality delete file.
 *
 * <p>Only the files whose live rows can differ are read: those added or removed, and those whose
 * delete files changed. A file whose new position deletes add no position is not read at all.
 */
public final class SnapshotDiff {

  /** The data files of one snapshot and the delete files that apply to each, by location. */
  public static final class Files {
    private final Map<String, FileScanTask> byLocation;

    private Files(Map<String, FileScanTask> byLocation) {
      this.byLocation = byLocation;
    }

    /** No file: the state before a table's first snapshot. */
    public static final Files NONE = new Files(Map.of());

    /**
     * Plans a snapshot's files.
     *
     * @return its data files with their delete files
     */
    public static Files of(Table table, long snapshotId) {
      Map<String, FileScanTask> tasks = new HashMap<>();
      TableScan scan = CallerRunsExecutor.planInCallerWhenSmall(table.newScan().useSnapshot(snapshotId));
      try (CloseableIterable<FileScanTask> planned = scan.planFiles()) {
        for (FileScanTask task : planned) {
          tasks.put(task.file().location(), task);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot plan snapshot " + snapshotId + " of " + table.name(), e);
      }
      return new Files(tasks);
    }
  }

  private final Table table;
  private final Schema schema;
  private final Schema readSchema;
  private final BufferAllocator allocator;

  /**
   * A reader of snapshot differences.
   *
   * @param schema the columns of the rows returned (the table's current schema)
   * @param allocator where native reads of data files are accounted while they are compared
   */
  public SnapshotDiff(Table table, Schema schema, BufferAllocator allocator) {
    this.table = table;
    this.schema = schema;
    this.allocator = allocator;
    this.readSchema = TypeUtil.join(schema, new Schema(MetadataColumns.ROW_POSITION));
  }

  /**
   * Reads what changed from {@code before} to {@code after}.
   *
   * @param before the parent's files ({@link Files#NONE} when it is unknown or there is none)
   * @param deleted where the deleted rows go, with the columns of the schema
   */
  public void read(Files before, Files after, List<Record> deleted, List<Record> inserted) {
    for (Map.Entry<String, FileScanTask> entry : before.byLocation.entrySet()) {
      FileScanTask now = after.byLocation.get(entry.getKey());
      if (now == null) {
        compare(entry.getValue(), null, deleted, inserted);
      } else if (!deleteFiles(now).equals(deleteFiles(entry.getValue()))) {
        compare(entry.getValue(), now, deleted, inserted);
      }
    }
    for (Map.Entry<String, FileScanTask> entry : after.byLocation.entrySet()) {
      if (!before.byLocation.containsKey(entry.getKey())) {
        compare(null, entry.getValue(), deleted, inserted);
      }
    }
  }

  private static Set<String> deleteFiles(FileScanTask task) {
    return task.deletes().stream().map(ContentFile::location).collect(Collectors.toSet());
  }

  /** Rows live under {@code was} and not under {@code is} are deleted; the reverse, inserted. */
  private void compare(FileScanTask was, FileScanTask is, List<Record> deleted, List<Record> inserted) {
    FileScanTask any = was != null ? was : is;
    if (any.file().format() != FileFormat.PARQUET) {
      throw new UnsupportedOperationException("The single-node engine reads Parquet data files only, not "
          + any.file().location());
    }
    Liveness before = was == null ? Liveness.NONE : liveness(was);
    Liveness after = is == null ? Liveness.NONE : liveness(is);
    if (was != null && is != null && before.onlyPositions() && after.onlyPositions()
        && !after.differsFrom(before)) {
      return;
    }
    if (readNatively(any, before, after, deleted, inserted)) {
      return;
    }
    try (CloseableIterable<Record> rows = open(any)) {
      int posIndex = readSchema.columns().size() - 1;
      for (Record row : rows) {
        long pos = (Long) row.get(posIndex);
        boolean wasLive = before.live(row, pos);
        boolean isLive = after.live(row, pos);
        if (wasLive && !isLive) {
          deleted.add(project(row));
        } else if (isLive && !wasLive) {
          inserted.add(project(row));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + any.file().location(), e);
    }
  }

  /**
   * Compares a file's live rows through a native read of the file, when one takes it and no equality
   * delete applies: a file whose position deletes changed converts only the rows at the changed
   * positions to records.
   *
   * @return whether the file was read; if not, nothing was added
   */
  private boolean readNatively(FileScanTask any, Liveness before, Liveness after, List<Record> deleted,
      List<Record> inserted) {
    if (!before.positionsOnly() || !after.positionsOnly()) {
      return false;
    }
    ReadPlanner planner = ReadPlanner.standard();
    Optional<VectorSchemaRoot> read = ReadChain.run(planner,
        planner.planFile(table, any.file(), schema, PageDecoderRead.INSTANCE), any.file().location(), allocator);
    if (read.isEmpty()) {
      return false;
    }
    try (VectorSchemaRoot root = read.get()) {
      LongStream.Builder gone = LongStream.builder();
      LongStream.Builder back = LongStream.builder();
      if (before.exists && after.exists) {
        after.forEachDeleted(pos -> {
          if (!before.deletedAt(pos)) {
            gone.add(pos);
          }
        });
        before.forEachDeleted(pos -> {
          if (!after.deletedAt(pos)) {
            back.add(pos);
          }
        });
      } else {
        Liveness live = before.exists ? before : after;
        LongStream.Builder into = before.exists ? gone : back;
        for (long pos = 0; pos < root.getRowCount(); pos++) {
          if (!live.deletedAt(pos)) {
            into.add(pos);
          }
        }
      }
      deleted.addAll(ArrowRecords.toRecords(root, schema, gone.build().mapToInt(Math::toIntExact).toArray()));
      inserted.addAll(ArrowRecords.toRecords(root, schema, back.build().mapToInt(Math::toIntExact).toArray()));
    }
    return true;
  }

  /**
   * Which rows of a task's data file are live: the positions its position deletes and deletion vectors
   * remove, loaded by the engine's delete reader, or Iceberg's filter of records where an equality
   * delete applies.
   */
  private Liveness liveness(FileScanTask task) {
    if (task.deletes().stream().anyMatch(file -> file.content() == FileContent.EQUALITY_DELETES)) {
      return new Liveness(new GenericDeleteFilter(table.io(), task, table.schema(), readSchema));
    }
    return new Liveness(LiveRows.of(table.io(), table.schema(), task, schema).deletedPositions());
  }

  private CloseableIterable<Record> open(FileScanTask task) {
    Parquet.ReadBuilder builder = Parquet.read(table.io().newInputFile(task.file().location()))
        .project(readSchema)
        .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(readSchema, fileSchema));
    String mapping = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
    if (mapping != null) {
      builder = builder.withNameMapping(NameMappingParser.fromJson(mapping));
    }
    return builder.build();
  }

  private Record project(Record row) {
    Record out = org.apache.iceberg.data.GenericRecord.create(schema);
    for (int i = 0; i < schema.columns().size(); i++) {
      out.set(i, row.get(i));
    }
    return out;
  }

  /** Whether a row of a file is live under one set of delete files. */
  private static final class Liveness {
    static final Liveness NONE = new Liveness((GenericDeleteFilter) null);

    private final PositionDeleteIndex positions;
    /** True for a row no equality delete removes (Iceberg's filter keeps such rows). */
    private final Predicate<Record> equalityKept;
    private final boolean exists;

    Liveness(GenericDeleteFilter filter) {
      this.exists = filter != null;
      this.positions = filter != null && filter.hasPosDeletes() ? filter.deletedRowPositions() : null;
      this.equalityKept = filter != null && filter.hasEqDeletes() ? filter.eqDeletedRowFilter() : null;
    }

    /** A file with only position deletes and deletion vectors: those positions, or null for none. */
    Liveness(PositionDeleteIndex positions) {
      this.exists = true;
      this.positions = positions;
      this.equalityKept = null;
    }

    boolean live(Record row, long pos) {
      if (!exists) {
        return false;
      }
      if (positions != null && positions.isDeleted(pos)) {
        return false;
      }
      return equalityKept == null || equalityKept.test(row);
    }

    boolean onlyPositions() {
      return exists && equalityKept == null;
    }

    /** Whether no equality delete applies (true for a file that does not exist). */
    boolean positionsOnly() {
      return equalityKept == null;
    }

    boolean deletedAt(long pos) {
      return positions != null && positions.isDeleted(pos);
    }

    void forEachDeleted(java.util.function.LongConsumer action) {
      if (positions != null) {
        positions.forEach(action::accept);
      }
    }

    /** Whether these position deletes and those of {@code before} differ in a position. */
    boolean differsFrom(Liveness before) {
      return anyOutside(positions, before.positions) || anyOutside(before.positions, positions);
    }

    /** Whether a position deleted in {@code some} is not deleted in {@code other}. */
    private static boolean anyOutside(PositionDeleteIndex some, PositionDeleteIndex other) {
      if (some == null || some.isEmpty()) {
        return false;
      }
      if (other == null) {
        return true;
      }
      boolean[] found = {false};
      some.forEach(pos -> found[0] |= !other.isDeleted(pos));
      return found[0];
    }
  }
}
