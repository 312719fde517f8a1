package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.parquet.PageCopyStrategy;
import dev.transforms.singlenode.internal.plan.FileRewrite;
import dev.transforms.singlenode.internal.plan.RewriteChain;
import dev.transforms.singlenode.internal.plan.RewritePlan;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.plan.RewriteRequest;
import dev.transforms.singlenode.internal.read.LiveRows;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Copy-on-write: a candidate data file that loses rows is replaced by new files holding its other
 * live rows, which keep their order and, in tables that track row lineage, their lineage columns.
 *
 * <p>The {@link RewritePlanner} chooses how, among the strategies this operation offers ({@link
 * #STRATEGIES}); {@link RewriteChain} runs its plan. The strategies are the page copy ({@link
 * PageCopyStrategy}), the engine's writer in two lanes ({@link TwoLaneRewrite}) and in one pass ({@link
 * OnePassRewrite}); those that find the dropped rows first share one probe of the file ({@link RewriteWork}).
 *
 * @param schema the table's schema
 * @param projection the columns to read: every column, then lineage columns when rows carry them, then
 *     {@code _pos}
 * @param files where kept rows are written
 * @param copyBufferRows rows of a file held in memory before its first dropped row
 * @param planner the planner that chooses how each file is rewritten
 */
record CopyOnWriteRewrite(FileIO io, Schema schema, Schema projection, RowChange change, EditFiles files,
    int copyBufferRows, RewritePlanner planner) {
  /** Rows of one file kept in memory while no row of it has been dropped yet. */
  static final int DEFAULT_COPY_BUFFER_ROWS = 200_000;

  /** The strategies a copy-on-write offers the planner. */
  static final List<FileRewrite<? super RewriteWork>> STRATEGIES = List.of(PageCopyStrategy.INSTANCE,
      TwoLaneRewrite.INSTANCE, OnePassRewrite.INSTANCE);

  /**
   * The position delete files (not deletion vectors, which Iceberg drops by itself) that apply only
   * to the task's data file: they go when the data file is rewritten.
   */
  static List<DeleteFile> fileScopedPositionDeletes(FileScanTask task) {
    List<DeleteFile> deletes = new ArrayList<>();
    for (DeleteFile delete : task.deletes()) {
      if (delete.content() == FileContent.POSITION_DELETES
          && !ContentFileUtil.isDV(delete)
          && ContentFileUtil.isFileScoped(delete)) {
        deletes.add(delete);
      }
    }
    return deletes;
  }

  /**
   * Writes the file's kept rows into new files; returns how many rows were dropped (0: none).
   *
   * @param kept the writers of the file's kept rows, this rewrite's alone while it runs
   */
  long rewrite(FileScanTask task, EditFiles.Slot kept) {
    LiveRows rows = LiveRows.of(io, schema, task, projection);
    Schema readSchema = rows.schema();
    RowChange.RowDecider decider = change.decider(readSchema, task.file());
    int posIndex = rows.columnIndex(MetadataColumns.ROW_POSITION.fieldId());
    RowChange.RowProbe probe = change.probe(readSchema);
    // whether the change finds its dropped rows by fewer columns than all but _pos
    boolean probes = probe != null && probe.columns().length < readSchema.columns().size() - 1;
    RewriteRequest request = files.rewriteRequest(task, probes);
    RewritePlan<RewriteWork> plan = planner.plan(request, STRATEGIES);
    return RewriteChain.run(plan, new RewriteWork(this, request, rows, decider, probe, posIndex, kept));
  }
}
