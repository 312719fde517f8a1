package dev.transforms.singlenode.internal.plan;

import dev.transforms.runtime.Counts;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expression;

/**
 * Chooses how a snapshot is read into Arrow: the one place that knows when each {@link ReadStrategy read
 * strategy} applies. A plan ({@link ReadPlan}) names the native read chosen, if any, and the reason; it
 * runs nothing ({@link ReadChain} does, with the engine's reader as the fallback). The operation offers
 * the native reader ({@link NativeReader}), so that this package names none of its packages. Position
 * deletes and deletion vectors are applied after decoding: a merge-on-read snapshot takes the same
 * strategies as a copy-on-write one.
 *
 * <p>A planner counts the reads each strategy gave the rows of ({@link #reads}). Operations ask {@link
 * #standard()} unless given another planner; a test creates its own ({@link #ReadPlanner()}) or forces one
 * strategy on a copy ({@link #forced}). The page decoder's switch ({@code
 * -Dtransforms.arrow-page-decoder=false}) is read by the page decoder itself, whichever planner asks it.
 */
public final class ReadPlanner {

  private static final ReadPlanner STANDARD = new ReadPlanner();

  /** The reads each strategy gave the rows of, by its ordinal; shared with the forced copies. */
  private final AtomicLongArray reads;

  private final ReadStrategy forced;

  /** A planner of its own counters, forcing nothing. */
  public ReadPlanner() {
    this(new AtomicLongArray(ReadStrategy.values().length), null);
  }

  private ReadPlanner(AtomicLongArray reads, ReadStrategy forced) {
    this.reads = reads;
    this.forced = forced;
  }

  /**
   * The planner every read asks unless given another.
   *
   * @return the JVM's standard planner
   */
  public static ReadPlanner standard() {
    return STANDARD;
  }

  /**
   * A copy of this planner that asks only one strategy (then the engine), so that a test can run one
   * strategy on any table; it counts into this planner's counters.
   *
   * @param strategy the strategy; null for the planner's own choice
   * @return the copy
   */
  public ReadPlanner forced(ReadStrategy strategy) {
    return new ReadPlanner(reads, strategy);
  }

  /**
   * Plans the read of every row of a scan.
   *
   * @param scan the table scan (its snapshot and row filter)
   * @param projected the columns read
   * @param nativeAllowed whether native readers may read ({@code ArrowTableReader.withNativeReads})
   * @param reader the native reader the operation offers
   * @return the plan
   */
  public ReadPlan plan(TableScan scan, Schema projected, boolean nativeAllowed, NativeReader reader) {
    Table table = scan.table();
    if (!nativeAllowed || forced == ReadStrategy.ENGINE) {
      return engine(forced == ReadStrategy.ENGINE ? "forced" : "native readers are turned off");
    } else if (scan.filter().op() != Expression.Operation.TRUE) {
      return engine("a row filter, which the engine evaluates on every row");
    } else if (scan.snapshot() == null) {
      return engine("the table has no snapshot");
    } else if (projected.columns().isEmpty()) {
      return engine("no column is read");
    }
    Optional<String> columns = DirectScan.declines(table, projected);
    if (columns.isPresent()) {
      return engine(columns.get());
    }
    Optional<DirectScan> files = DirectScan.planWithDeletes(table, scan.snapshot().snapshotId(), projected);
    if (files.isEmpty()) {
      return engine("a data file has equality deletes, or is not Parquet");
    }
    DirectScan direct = files.get();
    Optional<String> off = reader.declines();
    if (off.isPresent()) {
      return engine(reader.strategy().label() + ": " + off.get());
    }
    // deletes are loaded only once the native reader takes the read: the engine's reader loads them itself
    Optional<ArrowRead> read = reader.read(table, direct);
    if (read.isEmpty()) {
      return engine("the files hold more rows than one root");
    }
    String reason = String.format("%s: %s in %s, %s%s", read.get().strategy().label(),
        Counts.grouped(direct.rows(), "row"), Counts.of(direct.files().size(), "file"),
        Counts.of(projected.columns().size(), "column"), read.get().detail());
    return new ReadPlan(read.get().strategy(), reason, read.get(), this);
  }

  /**
   * Plans the read of every row of one data file, its deletes not applied: for a reader that needs the
   * rows at some positions of a file, such as the rows a snapshot deleted from it. Row {@code i} of the
   * root is the file's position {@code i}.
   *
   * @param table the table, for its schema history
   * @param file the data file
   * @param projected the columns read
   * @param reader the native reader the operation offers
   * @return the native read of the file ({@link ReadChain#run(ReadPlanner, Optional, String,
   *     org.apache.arrow.memory.BufferAllocator)}); empty when only the engine reads it
   */
  public Optional<ArrowRead> planFile(Table table, DataFile file, Schema projected, NativeReader reader) {
    if (forced == ReadStrategy.ENGINE || reader.declines().isPresent() || file.format() != FileFormat.PARQUET
        || projected.columns().isEmpty() || file.recordCount() > Integer.MAX_VALUE
        || DirectScan.declines(table, projected).isPresent()) {
      return Optional.empty();
    }
    DirectScan scan = new DirectScan(List.of(DirectScan.ScanFile.of(file.location(), file.fileSizeInBytes())),
        table.io(), projected, file.recordCount());
    return reader.read(table, scan);
  }

  /**
   * Plans the read of the live rows of one data file of a scan, its position deletes and deletion vectors
   * applied: for a reader that streams a snapshot file by file. The rows are the engine's rows of that
   * file, in file order.
   *
   * @param table the table, for its schema history
   * @param task the file's scan task, whole (not a split), with its deletes
   * @param projected the columns read
   * @param reader the native reader the operation offers
   * @return the native read of the file; empty when only the engine reads it
   */
  public Optional<ArrowRead> planTask(Table table, FileScanTask task, Schema projected, NativeReader reader) {
    DataFile file = task.file();
    if (forced == ReadStrategy.ENGINE || reader.declines().isPresent() || file.format() != FileFormat.PARQUET
        || projected.columns().isEmpty() || file.recordCount() > Integer.MAX_VALUE
        || task.start() != 0 || task.length() < file.fileSizeInBytes()
        || task.deletes().stream().anyMatch(d -> d.content() == FileContent.EQUALITY_DELETES)
        || DirectScan.declines(table, projected).isPresent()) {
      return Optional.empty();
    }
    Map<Integer, FileScanTask> deleted = task.deletes().isEmpty() ? Map.of() : Map.of(0, task);
    DirectScan scan = new DirectScan(List.of(DirectScan.ScanFile.of(file.location(), file.fileSizeInBytes())),
        table.io(), projected, file.recordCount(), new long[] {file.recordCount()}, deleted);
    return reader.read(table, scan);
  }

  private ReadPlan engine(String why) {
    return new ReadPlan(ReadStrategy.ENGINE, "engine: " + why, null, this);
  }

  /** Counts a read whose rows a strategy gave; {@link ReadChain} calls it. */
  void count(ReadStrategy strategy) {
    reads.incrementAndGet(strategy.ordinal());
  }

  /**
   * The reads whose rows a strategy gave through this planner and its forced copies, for tests and
   * benchmarks that must know which ran.
   *
   * @param strategy the strategy
   * @return how many reads it gave
   */
  public long reads(ReadStrategy strategy) {
    return reads.get(strategy.ordinal());
  }
}
