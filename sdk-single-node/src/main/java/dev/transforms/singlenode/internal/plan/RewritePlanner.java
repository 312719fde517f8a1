package dev.transforms.singlenode.internal.plan;

import dev.transforms.singlenode.internal.parquet.FileBytes;
import dev.transforms.singlenode.internal.parquet.PageCopyRewrite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.OutputFile;

/**
 * Chooses how a copy-on-write rewrites a data file: the one place that knows the {@link RewriteStrategy
 * rewrite strategies}. A plan names one strategy and the reason; the reason is logged at debug, and each
 * rewrite is counted by the strategy that wrote it ({@link #rewrites}). The page copy needs the dropped
 * positions first; when it finds while writing that it does not apply, the engine's two lanes write the
 * file.
 */
public final class RewritePlanner {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RewritePlanner.class);

  /** Files with at least this many rows are rewritten with their dropped positions found first. */
  public static final long POSITIONS_FIRST_MIN_ROWS = 400_000;

  /** The rewrites each strategy wrote, by its ordinal. */
  private static final AtomicLongArray REWRITES = new AtomicLongArray(RewriteStrategy.values().length);

  private static volatile RewriteStrategy forced;

  private RewritePlanner() {}

  /**
   * One Parquet data file to rewrite, wherever the table's {@code FileIO} keeps it.
   *
   * @param table the table the file belongs to
   * @param schema the columns written, in order (the table's)
   * @param source the file: its location and size
   * @param spec its partition spec, the new file's
   * @param partition its partition, the new file's
   */
  public record Request(Table table, Schema schema, DirectScan.ScanFile source, PartitionSpec spec,
      StructLike partition) {}

  /**
   * The strategy chosen for a rewrite and why.
   *
   * @param reason why, for logs and tests ("page copy: 1,000,000 rows, ...")
   * @param request the file, for a native strategy; null otherwise
   */
  public record Plan(RewriteStrategy strategy, String reason, Request request) {
    /**
     * Whether the dropped positions are found first (by a probe), then the file is written by a native
     * strategy or the engine's two lanes; otherwise the engine decides row by row in one pass.
     *
     * @return whether positions come first
     */
    public boolean positionsFirst() {
      return strategy != RewriteStrategy.ENGINE;
    }
  }

  /**
   * Plans the rewrite of one data file by a copy-on-write.
   *
   * @param schema the columns written (the table's, with lineage columns when rows carry them)
   * @param rowLineage whether rows carry lineage columns (or the table writes another format than Parquet)
   * @param probes whether the change finds its dropped rows by fewer columns than all (a probe)
   */
  public static Plan plan(Table table, Schema schema, FileScanTask task, boolean rowLineage, boolean probes) {
    RewriteStrategy only = forced;
    long rows = task.file().recordCount();
    if (only == RewriteStrategy.ENGINE) {
      return engine(RewriteStrategy.ENGINE, "forced");
    } else if (!probes) {
      return engine(RewriteStrategy.ENGINE, "the change decides on whole rows");
    } else if (only == null && rows < POSITIONS_FIRST_MIN_ROWS) {
      return engine(RewriteStrategy.ENGINE, String.format("%,d rows, under %,d: one pass over whole rows", rows,
          POSITIONS_FIRST_MIN_ROWS));
    }
    String notNative = rowLineage ? "rows carry lineage columns, or the table writes another format"
        : task.file().format() != FileFormat.PARQUET ? "the file is " + task.file().format()
        : task.spec().specId() != table.spec().specId() ? "the file has an older partition spec"
        : task.deletes().stream().anyMatch(d -> d.content() == FileContent.EQUALITY_DELETES)
            ? "equality deletes apply to the file" : null;
    if (notNative != null || only == RewriteStrategy.ENGINE_TWO_LANES) {
      return engine(RewriteStrategy.ENGINE_TWO_LANES, notNative == null ? "forced" : notNative);
    }
    Request request = new Request(table, schema,
        DirectScan.ScanFile.of(task.file().location(), task.file().fileSizeInBytes()), task.spec(),
        task.file().partition());
    Optional<String> declined = PageCopyRewrite.declines(request);
    if (declined.isPresent()) {
      return engine(RewriteStrategy.ENGINE_TWO_LANES, RewriteStrategy.PAGE_COPY.label() + ": " + declined.get());
    }
    return new Plan(RewriteStrategy.PAGE_COPY, String.format("%s: %,d rows", RewriteStrategy.PAGE_COPY.label(), rows),
        request);
  }

  /**
   * Plans a compaction: files are merged into files of the target size, which only the engine's writer
   * does.
   */
  public static Plan planCompaction(int files) {
    Plan plan = engine(RewriteStrategy.ENGINE, "compaction merges " + files + " files into files of the target size");
    LOG.debug("Compacting by the {}", plan.reason());
    return plan;
  }

  /**
   * Rewrites a file by a plan's page copy.
   *
   * @param plan a plan whose strategy is native
   * @param leftOut the positions to leave out, sorted
   * @param target the new file's location, as the table names it
   * @return the new file; empty, nothing left at the target, when the page copy gave up or failed (the
   *     engine's two lanes then rewrite it)
   */
  public static Optional<DataFile> rewrite(Plan plan, long[] leftOut, String target) {
    return rewrite(plan, leftOut, target, Optional.empty());
  }

  /**
   * Rewrites a file by a plan's page copy, reading it through bytes a reader of its rows already fetched
   * (a file on object storage), so that it is fetched once.
   *
   * @param source the file's bytes, left open; empty to open the file
   * @return as {@link #rewrite(Plan, long[], String)}
   */
  public static Optional<DataFile> rewrite(Plan plan, long[] leftOut, String target, Optional<FileBytes> source) {
    if (plan.request() == null) {
      return Optional.empty();
    }
    Table table = plan.request().table();
    Optional<Path> local = DirectScan.localPath(target);
    if (local.isPresent()) {
      try {
        Files.createDirectories(local.get().getParent()); // a table's data folder may not exist yet
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("Cannot create the folder of " + target, e);
      }
    }
    try {
      OutputFile out = table.io().newOutputFile(target);
      Optional<DataFile> written = source.isPresent()
          ? PageCopyRewrite.rewrite(plan.request(), leftOut, out, source.get())
          : PageCopyRewrite.rewrite(plan.request(), leftOut, out);
      if (written.isPresent()) {
        LOG.debug("Rewrote {} of {} by {}", plan.request().source(), plan.request().table().name(), plan.reason());
        count(plan.strategy());
        return written;
      }
    } catch (RuntimeException e) {
      LOG.warn("The {} rewrite of {} of table {} failed; rewriting it another way", plan.strategy().label(),
          plan.request().source(), plan.request().table().name(), e);
    }
    try {
      table.io().deleteFile(target);
    } catch (RuntimeException e) {
      LOG.debug("Cannot remove {}; the operation removes it with its other files", target, e);
    }
    return Optional.empty();
  }

  /**
   * Counts a rewrite the engine wrote itself ({@link RewriteStrategy#ENGINE} or
   * {@link RewriteStrategy#ENGINE_TWO_LANES}), and logs the plan's reason.
   *
   * @param strategy the engine strategy that wrote the file
   */
  public static void rewroteOnEngine(RewriteStrategy strategy, Plan plan) {
    LOG.debug("Rewrote a file by the {} ({})", strategy.label(), plan.reason());
    count(strategy);
  }

  private static void count(RewriteStrategy strategy) {
    REWRITES.incrementAndGet(strategy.ordinal());
  }

  private static Plan engine(RewriteStrategy strategy, String why) {
    return new Plan(strategy, strategy.label() + ": " + why, null);
  }

  /** The rewrites a strategy wrote, in this JVM, for tests that must know which ran. */
  public static long rewrites(RewriteStrategy strategy) {
    return REWRITES.get(strategy.ordinal());
  }

  /**
   * Makes every rewrite in this JVM ask only one strategy (then the engine's two lanes), until the
   * returned handle is closed; size thresholds are ignored, so that a test can force a strategy on small
   * files.
   *
   * @return closes to restore the planner's own choice
   */
  public static AutoCloseable force(RewriteStrategy strategy) {
    forced = strategy;
    return () -> forced = null;
  }
}
