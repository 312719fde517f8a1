package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.parquet.FileBytes;
import dev.transforms.singlenode.internal.parquet.PageCopyStrategy;
import dev.transforms.singlenode.internal.plan.RewriteRequest;
import dev.transforms.singlenode.internal.read.LiveRows;
import dev.transforms.singlenode.internal.read.LiveRuns;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteIndexUtil;

/**
 * One data file a copy-on-write rewrites, as its strategies get it: the file's live rows, the change's
 * decider, where kept rows go, and the dropped positions, found first by a probe once a strategy asks
 * ({@link ProbeScan}) and then shared by the strategies that try the file after it.
 *
 * <p>One per file rewritten; a rewrite runs on one thread at a time.
 */
final class RewriteWork implements PageCopyStrategy.Work {
  private final CopyOnWriteRewrite rewrite;
  private final RewriteRequest request;
  private final LiveRows rows;
  private final RowChange.RowDecider decider;
  private final RowChange.RowProbe probe;
  private final int posIndex;
  private final EditFiles.Slot kept;
  private PositionDeleteIndex dropped;
  private boolean probed;

  /**
   * @param rewrite the copy-on-write (its change, files and settings)
   * @param request the file, as the planner saw it
   * @param rows the file's live rows
   * @param decider the change's decider of the file's rows
   * @param probe the change's probe of the file's rows, or null
   * @param posIndex where {@code _pos} is in the rows read
   * @param kept the writers of the file's kept rows, this rewrite's alone while it runs
   */
  RewriteWork(CopyOnWriteRewrite rewrite, RewriteRequest request, LiveRows rows, RowChange.RowDecider decider,
      RowChange.RowProbe probe, int posIndex, EditFiles.Slot kept) {
    this.rewrite = rewrite;
    this.request = request;
    this.rows = rows;
    this.decider = decider;
    this.probe = probe;
    this.posIndex = posIndex;
    this.kept = kept;
  }

  CopyOnWriteRewrite rewrite() {
    return rewrite;
  }

  @Override
  public RewriteRequest request() {
    return request;
  }

  LiveRows rows() {
    return rows;
  }

  RowChange.RowDecider decider() {
    return decider;
  }

  RowChange.RowProbe probe() {
    return probe;
  }

  int posIndex() {
    return posIndex;
  }

  EditFiles.Slot kept() {
    return kept;
  }

  FileScanTask task() {
    return request.task();
  }

  /**
   * The positions the change drops, found by a probe the first time a strategy asks; empty when the
   * engine's cursor cannot read the file (having read nothing).
   */
  Optional<PositionDeleteIndex> dropped() {
    if (!probed) {
      probed = true;
      PositionDeleteIndex positions = ProbeScan.newPositionIndex();
      if (ProbeScan.findDropped(rows, rewrite.change(), decider, row -> positions.delete((Long) row.get(posIndex)),
          new int[0])) {
        dropped = positions;
      }
    }
    return Optional.ofNullable(dropped);
  }

  @Override
  public long droppedRows() {
    return dropped().map(PositionDeleteIndex::cardinality).orElse(-1L);
  }

  @Override
  public long[] leftOut() {
    PositionDeleteIndex dropped = dropped().orElseThrow();
    PositionDeleteIndex before = rows.deletedPositions();
    PositionDeleteIndex leftOut = before == null ? dropped : PositionDeleteIndexUtil.merge(List.of(dropped, before));
    return LiveRuns.sorted(leftOut, 0, Long.MAX_VALUE);
  }

  @Override
  public String claimNewFile() {
    return rewrite.files().claimRewrite(task());
  }

  @Override
  public void written(String location, Optional<DataFile> written) {
    rewrite.files().keepRewrite(location, written);
  }

  @Override
  public Optional<FileBytes> fetchedBytes() {
    return rows.fetchedBytes();
  }
}
