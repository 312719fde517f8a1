package dev.transforms.singlenode.internal.plan;

import dev.transforms.runtime.Locations;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The data files of one snapshot when a native reader can read them itself: every file is Parquet, no
 * equality delete applies to a file, the files carry the Iceberg field ids (no name mapping), and every
 * column is of a type native readers read to the same values the engine's reader gives
 * ({@link #declines}). Position deletes and deletion vectors may apply ({@link #planWithDeletes}): the
 * reader then drops the rows they remove from what it decoded; {@link #plan} takes only snapshots whose
 * files hold exactly their rows. The files may be anywhere the table's {@code FileIO} reaches; a reader
 * that opens files by their local path (DuckDB) takes only a scan that {@link #isLocal is local}.
 *
 * <p>When any of this does not hold, the plans answer empty and the rows go through the engine's
 * reader, which applies every delete.
 *
 * @param files the data files, in scan order
 * @param io reads the files
 * @param rows the rows the files hold, from the table's metadata, before deletes
 * @param fileRows the rows of each file, before deletes
 * @param deleted the scan tasks of the files that have position deletes or a deletion vector, by index
 *     in {@code files}; empty for a scan of a snapshot's rows exactly
 */
public record DirectScan(List<ScanFile> files, FileIO io, Schema schema, long rows, long[] fileRows,
    Map<Integer, FileScanTask> deleted) {

  /**
   * One data file of a scan.
   *
   * @param location the file's location, as the table names it
   * @param size its size in bytes, as the table records it
   * @param local its path on the local file system; null for a file elsewhere
   */
  public record ScanFile(String location, long size, Path local) {
    /**
     * The file of a location.
     *
     * @param location the file's location
     * @param size its size in bytes
     * @return the file, with its local path when it is local
     */
    public static ScanFile of(String location, long size) {
      return new ScanFile(location, size, localPath(location).orElse(null));
    }
  }

  /**
   * A scan of files whose rows are exactly the rows to read.
   *
   * @param files the data files
   */
  public DirectScan(List<ScanFile> files, FileIO io, Schema schema, long rows) {
    this(files, io, schema, rows, null, Map.of());
  }

  public DirectScan {
    files = List.copyOf(files);
  }

  /**
   * Whether every file is on the local file system, for readers that open files by path.
   *
   * @return whether the scan is local
   */
  public boolean isLocal() {
    return files.stream().allMatch(file -> file.local() != null);
  }

  /**
   * The local paths of the files.
   *
   * @return the paths, in scan order
   * @throws IllegalStateException if a file is not local
   */
  public List<Path> paths() {
    if (!isLocal()) {
      throw new IllegalStateException("A file of the scan is not on the local file system: " + files);
    }
    return files.stream().map(ScanFile::local).toList();
  }

  /**
   * Plans the direct scan of a snapshot, if one is possible.
   *
   * @return the scan, whose schema is the snapshot's as the engine's reader reads it; or empty when the
   *     rows must go through the engine's reader
   */
  public static Optional<DirectScan> plan(Table table, long snapshotId) {
    return plan(table, snapshotId, table.newScan().useSnapshot(snapshotId).schema());
  }

  /**
   * Plans the direct scan of some columns of a snapshot, if one is possible.
   *
   * @param schema the columns to read: the snapshot's schema or a selection of its top-level columns
   * @return the scan, or empty when the rows must go through the engine's reader
   */
  public static Optional<DirectScan> plan(Table table, long snapshotId, Schema schema) {
    return planWithDeletes(table, snapshotId, schema).filter(scan -> scan.deleted().isEmpty());
  }

  /**
   * Plans the direct scan of some columns of a snapshot whose files may have position deletes or
   * deletion vectors against them, which the reader must apply to what it decodes ({@link #deleted}).
   *
   * @return the scan, or empty when the rows must go through the engine's reader
   */
  public static Optional<DirectScan> planWithDeletes(Table table, long snapshotId, Schema schema) {
    SnapshotFiles.existing(table, snapshotId);
    if (schema.columns().isEmpty() || declines(table, schema).isPresent()) {
      return Optional.empty();
    }
    return SnapshotFiles.of(table, snapshotId)
        .filter(files -> !files.files().isEmpty())
        .map(files -> new DirectScan(files.files(), table.io(), schema, files.rows(), files.fileRows(),
            files.deleted()));
  }

  /**
   * Why the columns cannot be read from the files as they are, or empty when they can: a column of a
   * type no native reader reads, with an initial default, or promoted since older files were written.
   *
   * @return the reason, naming the column
   */
  public static Optional<String> declines(Table table, Schema schema) {
    if (table.properties().containsKey(TableProperties.DEFAULT_NAME_MAPPING)) {
      return Optional.of("the table maps column names to field ids (files without ids)");
    }
    for (Types.NestedField column : schema.columns()) {
      if (!column.type().isPrimitiveType() || !NATIVE_TYPES.contains(column.type().typeId())) {
        return Optional.of("column " + column.name() + " is of type " + column.type() + ", which only the engine reads");
      } else if (!plainFileColumn(table, column)) {
        return Optional.of("column " + column.name() + " has a default or was widened: older files hold it otherwise");
      }
    }
    return Optional.empty();
  }

  /** The types native readers read to the values the engine's reader gives. */
  private static final java.util.Set<Type.TypeID> NATIVE_TYPES = java.util.EnumSet.of(Type.TypeID.BOOLEAN,
      Type.TypeID.INTEGER, Type.TypeID.LONG, Type.TypeID.FLOAT, Type.TypeID.DOUBLE, Type.TypeID.DATE, Type.TypeID.TIME,
      Type.TypeID.TIMESTAMP, Type.TypeID.STRING, Type.TypeID.UUID, Type.TypeID.BINARY, Type.TypeID.FIXED,
      Type.TypeID.DECIMAL);

  /**
   * Whether every file of the table holds a column as the current schema has it, so that a reader of
   * the files needs no Iceberg logic for it: no initial default, and the same type in every schema the
   * table has had that holds the column (files written before a type promotion hold the narrower type).
   *
   * @return whether the column can be read from the files as they are
   */
  public static boolean plainFileColumn(Table table, Types.NestedField column) {
    if (column.initialDefault() != null) {
      return false;
    }
    for (Schema earlier : table.schemas().values()) {
      Types.NestedField then = earlier.findField(column.fieldId());
      if (then != null && !then.type().equals(column.type())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The local path of a file location, when it is on the local file system, taken as written
   * ({@link Locations#localPath}).
   *
   * @param location a location ({@code /...}, {@code file:/...} or {@code file:///...})
   * @return the path, or empty for any other scheme or a location naming a host
   */
  public static Optional<Path> localPath(String location) {
    return Locations.localPath(location);
  }
}
