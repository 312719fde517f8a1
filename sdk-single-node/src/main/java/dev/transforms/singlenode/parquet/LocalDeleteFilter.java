package dev.transforms.singlenode.parquet;

import dev.transforms.singlenode.threads.CallerRunsExecutor;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.DeleteLoader;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.util.ThreadPools;

/**
 * Iceberg's generic delete filter, loading a data file's few delete files in the calling thread
 * instead of through the shared delete worker pool, whose 10 ms polling dominates when there is
 * little to load (see {@link CallerRunsExecutor}). Many delete files still load in parallel.
 */
public final class LocalDeleteFilter extends GenericDeleteFilter {
  /** Up to this many delete files per data file are loaded in the calling thread. */
  private static final int MAX_DELETE_FILES_IN_CALLER = 8;

  private final boolean inCaller;

  /** A filter of the task's deletes for rows read with the requested schema. */
  public LocalDeleteFilter(FileIO io, FileScanTask task, Schema tableSchema, Schema requestedSchema) {
    super(io, task, tableSchema, requestedSchema);
    this.inCaller = task.deletes().size() <= MAX_DELETE_FILES_IN_CALLER;
  }

  @Override
  protected DeleteLoader newDeleteLoader() {
    return new BaseDeleteLoader(
        this::loadInputFile,
        inCaller ? CallerRunsExecutor.INSTANCE : ThreadPools.getDeleteWorkerPool());
  }
}
