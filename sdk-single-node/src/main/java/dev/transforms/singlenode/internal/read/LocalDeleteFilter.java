package dev.transforms.singlenode.internal.read;

import dev.transforms.singlenode.internal.threads.CallerRunsExecutor;
import java.util.List;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.DeleteLoader;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ThreadPools;

/**
 * Iceberg's delete filter for generic records, loading a data file's few delete files in the calling
 * thread instead of through the shared delete worker pool, whose 10 ms polling dominates when there
 * is little to load (see {@link CallerRunsExecutor}). Many delete files still load in parallel.
 *
 * <p>It takes the data file's path and delete files rather than a {@code FileScanTask}, so that the
 * changelog's tasks, which are not file scan tasks, are read the same way.
 */
final class LocalDeleteFilter extends DeleteFilter<Record> {
  /** Up to this many delete files per data file are loaded in the calling thread. */
  private static final int MAX_DELETE_FILES_IN_CALLER = 8;

  private final FileIO io;
  private final boolean inCaller;
  private final InternalRecordWrapper asStructLike;
  private final int positionIndex;

  /**
   * A filter of a data file's deletes for rows read with the requested schema.
   *
   * @param io where the delete files are read from
   * @param dataFile the data file's location
   * @param deletes the delete files that apply to it
   * @param tableSchema the table's schema, in which equality deletes find their columns
   * @param requestedSchema the columns the caller wants; {@link #requiredSchema()} adds those the
   *     deletes need
   */
  LocalDeleteFilter(
      FileIO io, String dataFile, List<DeleteFile> deletes, Schema tableSchema, Schema requestedSchema) {
    super(dataFile, deletes, tableSchema, requestedSchema);
    this.io = io;
    this.inCaller = deletes.size() <= MAX_DELETE_FILES_IN_CALLER;
    this.asStructLike = new InternalRecordWrapper(requiredSchema().asStruct());
    this.positionIndex = indexOf(requiredSchema(), MetadataColumns.ROW_POSITION.fieldId());
  }

  /** The position of a top-level field in the schema, or -1. */
  static int indexOf(Schema schema, int fieldId) {
    List<Types.NestedField> columns = schema.columns();
    for (int i = 0; i < columns.size(); i += 1) {
      if (columns.get(i).fieldId() == fieldId) {
        return i;
      }
    }
    return -1;
  }

  @Override
  protected long pos(Record record) {
    return (Long) record.get(positionIndex);
  }

  @Override
  protected StructLike asStructLike(Record record) {
    return asStructLike.wrap(record);
  }

  @Override
  protected InputFile getInputFile(String location) {
    return io.newInputFile(location);
  }

  @Override
  protected DeleteLoader newDeleteLoader() {
    return new BaseDeleteLoader(
        this::loadInputFile,
        inCaller ? CallerRunsExecutor.INSTANCE : ThreadPools.getDeleteWorkerPool());
  }
}
