package dev.transforms.singlenode.internal.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;

/**
 * Chooses how a copy-on-write rewrites a data file: the one place that knows when each {@link RewriteStrategy
 * rewrite strategy} applies. A plan ({@link RewritePlan}) lists the strategies to try, the chosen one first,
 * then its fallbacks, with the reason of the choice; it runs nothing ({@link RewriteChain} does). The
 * operation offers the strategy objects ({@link FileRewrite}), so that this package names none of their
 * packages.
 *
 * <p>A planner counts the rewrites each strategy wrote ({@link #rewrites}). Operations ask {@link
 * #standard()} unless given another planner; a test creates its own ({@link #RewritePlanner()}) or forces
 * one strategy on a copy ({@link #forced}). The page copy's switch ({@code -Dtransforms.page-copy=false})
 * is read by the page copy itself, whichever planner asks it.
 */
public final class RewritePlanner {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RewritePlanner.class);

  /** Files with at least this many rows are rewritten with their dropped positions found first. */
  public static final long POSITIONS_FIRST_MIN_ROWS = 400_000;

  private static final RewritePlanner STANDARD = new RewritePlanner();

  /** The rewrites each strategy wrote, by its ordinal; shared with the forced copies of this planner. */
  private final AtomicLongArray rewrites;

  private final RewriteStrategy forced;

  /** A planner of its own counters, forcing nothing. */
  public RewritePlanner() {
    this(new AtomicLongArray(RewriteStrategy.values().length), null);
  }

  private RewritePlanner(AtomicLongArray rewrites, RewriteStrategy forced) {
    this.rewrites = rewrites;
    this.forced = forced;
  }

  /**
   * The planner every operation asks unless given another.
   *
   * @return the JVM's standard planner
   */
  public static RewritePlanner standard() {
    return STANDARD;
  }

  /**
   * A copy of this planner that asks only one strategy (then its fallbacks), whatever the file's size,
   * so that a test can force a strategy on small files; it counts into this planner's counters.
   *
   * @param strategy the strategy to ask first; null for the planner's own choice
   * @return the copy
   */
  public RewritePlanner forced(RewriteStrategy strategy) {
    return new RewritePlanner(rewrites, strategy);
  }

  /**
   * Plans the rewrite of one data file by a copy-on-write.
   *
   * @param request the file
   * @param strategies the strategy objects the operation offers, one of each kind it has; the plan lists
   *     those that apply, in the order page copy, engine in two lanes, engine
   * @param <W> what the strategies are handed while rewriting
   * @return the plan
   */
  public <W> RewritePlan<W> plan(RewriteRequest request, List<? extends FileRewrite<? super W>> strategies) {
    RewriteStrategy only = forced;
    long rows = request.rows();
    if (only == RewriteStrategy.ENGINE) {
      return plan(strategies, RewriteStrategy.ENGINE, "forced");
    } else if (!request.probes()) {
      return plan(strategies, RewriteStrategy.ENGINE, "the change decides on whole rows");
    } else if (only == null && rows < POSITIONS_FIRST_MIN_ROWS) {
      return plan(strategies, RewriteStrategy.ENGINE, String.format("%,d rows, under %,d: one pass over whole rows",
          rows, POSITIONS_FIRST_MIN_ROWS));
    }
    FileScanTask task = request.task();
    String notNative = request.rowLineage() ? "rows carry lineage columns, or the table writes another format"
        : task.file().format() != FileFormat.PARQUET ? "the file is " + task.file().format()
        : task.spec().specId() != request.table().spec().specId() ? "the file has an older partition spec"
        : task.deletes().stream().anyMatch(d -> d.content() == FileContent.EQUALITY_DELETES)
            ? "equality deletes apply to the file" : null;
    if (notNative != null || only == RewriteStrategy.ENGINE_TWO_LANES) {
      return plan(strategies, RewriteStrategy.ENGINE_TWO_LANES, notNative == null ? "forced" : notNative);
    }
    Optional<String> declined = strategies.stream().filter(s -> s.strategy() == RewriteStrategy.PAGE_COPY)
        .findFirst().map(s -> s.declines(request)).orElse(Optional.of("not offered"));
    if (declined.isPresent()) {
      return plan(strategies, RewriteStrategy.ENGINE_TWO_LANES,
          RewriteStrategy.PAGE_COPY.label() + ": " + declined.get());
    }
    return new RewritePlan<>(chain(strategies, RewriteStrategy.PAGE_COPY),
        String.format("%s: %,d rows", RewriteStrategy.PAGE_COPY.label(), rows), this);
  }

  private <W> RewritePlan<W> plan(List<? extends FileRewrite<? super W>> strategies, RewriteStrategy first,
      String why) {
    return new RewritePlan<>(chain(strategies, first), first.label() + ": " + why, this);
  }

  /** The offered strategies from {@code first} on, in the order of {@link RewriteStrategy}. */
  private static <W> List<FileRewrite<? super W>> chain(List<? extends FileRewrite<? super W>> strategies,
      RewriteStrategy first) {
    List<FileRewrite<? super W>> chain = new ArrayList<>(RewriteStrategy.values().length);
    for (RewriteStrategy kind : RewriteStrategy.values()) {
      if (kind.ordinal() >= first.ordinal()) {
        for (FileRewrite<? super W> strategy : strategies) {
          if (strategy.strategy() == kind) {
            chain.add(strategy);
          }
        }
      }
    }
    return chain;
  }

  /**
   * The reason a compaction gives: files are merged into files of the target size, which only the
   * engine's writer does. Logged at debug.
   *
   * @param files the files merged
   * @return the reason
   */
  public static String planCompaction(int files) {
    String reason = RewriteStrategy.ENGINE.label() + ": compaction merges " + files
        + " files into files of the target size";
    LOG.debug("Compacting by the {}", reason);
    return reason;
  }

  /** Counts a rewrite a strategy wrote; {@link RewriteChain} calls it. */
  void count(RewriteStrategy strategy) {
    rewrites.incrementAndGet(strategy.ordinal());
  }

  /**
   * The rewrites a strategy wrote through this planner and its forced copies, for tests and benchmarks
   * that must know which ran.
   *
   * @param strategy the strategy
   * @return how many files it rewrote
   */
  public long rewrites(RewriteStrategy strategy) {
    return rewrites.get(strategy.ordinal());
  }
}
