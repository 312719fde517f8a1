package dev.transforms.singlenode.internal.plan;

import dev.transforms.singlenode.internal.parquet.PagedColumnsRead;
import dev.transforms.singlenode.internal.read.LiveRuns;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expression;

/**
 * Chooses how a snapshot is read into Arrow: the one place that knows the {@link ReadStrategy read
 * strategies}. A plan names one strategy and the reason; the reason is logged at debug, and each read is
 * counted by the strategy that gave its rows ({@link #reads}). The page decoder reads what it takes; when
 * it finds while reading that it cannot give the engine's root, the engine's reader reads instead.
 * Position deletes and deletion vectors are applied after decoding ({@link LiveRuns}): a merge-on-read
 * snapshot takes the same strategies as a copy-on-write one.
 */
public final class ReadPlanner {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReadPlanner.class);

  /** The reads each strategy gave the rows of, by its ordinal. */
  private static final AtomicLongArray READS = new AtomicLongArray(ReadStrategy.values().length);

  private static volatile ReadStrategy forced;

  private ReadPlanner() {}

  /**
   * The strategy chosen for a read and why.
   *
   * @param reason why, for logs and tests ("page decoder: 1,000,000 rows in 1 file, 7 columns")
   * @param scan the files to read, or null for the engine
   * @param live the runs of live rows in the files, when deletes apply to them; or null
   */
  public record Plan(ReadStrategy strategy, String reason, DirectScan scan, LiveRuns live) {}

  /**
   * Plans the read of every row of a scan.
   *
   * @param scan the table scan (its snapshot and row filter)
   * @param nativeAllowed whether native readers may read ({@code ArrowTableReader.withNativeReads})
   */
  public static Plan plan(TableScan scan, Schema projected, boolean nativeAllowed) {
    ReadStrategy only = forced;
    Table table = scan.table();
    if (!nativeAllowed || only == ReadStrategy.ENGINE) {
      return engine(only == ReadStrategy.ENGINE ? "forced" : "native readers are turned off");
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
    if (!PagedColumnsRead.enabled()) {
      return engine("page decoder: turned off (-D" + PagedColumnsRead.SWITCH + "=false)");
    }
    // loaded only once the page decoder takes the read: the engine's reader loads deletes itself
    LiveRuns live = direct.deleted().isEmpty() ? null
        : LiveRuns.of(table, direct.schema(), direct.fileRows(), direct.deleted());
    if (!direct.deleted().isEmpty() && live == null) {
      return engine("the files hold more rows than one root");
    }
    String reason = String.format("%s: %s in %s, %s%s", ReadStrategy.PAGE_DECODER.label(),
        dev.transforms.runtime.internal.build.Counts.grouped(direct.rows(), "row"), dev.transforms.runtime.internal.build.Counts.of(direct.files().size(), "file"),
        dev.transforms.runtime.internal.build.Counts.of(projected.columns().size(), "column"),
        live == null ? "" : ", deletes applied after decoding (" + live + ")");
    return new Plan(ReadStrategy.PAGE_DECODER, reason, direct, live);
  }

  /**
   * Reads by a plan: with the page decoder when the plan says so, or, when it gives up while reading,
   * with the engine's reader.
   *
   * @param allocator where the root's memory is accounted
   * @param engine the engine's read of the same rows
   * @return the rows, the caller's to close
   */
  public static VectorSchemaRoot read(Plan plan, Table table, BufferAllocator allocator,
      Supplier<VectorSchemaRoot> engine) {
    if (plan.strategy() == ReadStrategy.PAGE_DECODER && forced != ReadStrategy.ENGINE) {
      Optional<VectorSchemaRoot> root = decode(plan.scan(), table.name(), allocator);
      if (root.isPresent()) {
        LOG.debug("Read {} with {}", table.name(), plan.reason());
        return plan.live() == null ? root.get() : plan.live().keep(root.get());
      }
    } else if (plan.strategy() == ReadStrategy.ENGINE) {
      LOG.debug("Read {} with {}", table.name(), plan.reason());
    }
    VectorSchemaRoot root = engine.get();
    READS.incrementAndGet(ReadStrategy.ENGINE.ordinal());
    return root;
  }

  /**
   * Reads every row of one data file, its deletes not applied, with the page decoder: for a reader
   * that needs the rows at some positions of a file, such as the rows a snapshot deleted from it. Row
   * {@code i} of the root is the file's position {@code i}.
   *
   * @param table the table, for its schema history
   * @param allocator where the root's memory is accounted
   * @return the file's rows in file order, the caller's to close; empty when only the engine reads it
   */
  public static Optional<VectorSchemaRoot> readFile(Table table, DataFile file, Schema projected,
      BufferAllocator allocator) {
    if (forced == ReadStrategy.ENGINE || !PagedColumnsRead.enabled() || file.format() != FileFormat.PARQUET
        || projected.columns().isEmpty() || file.recordCount() > Integer.MAX_VALUE
        || DirectScan.declines(table, projected).isPresent()) {
      return Optional.empty();
    }
    DirectScan scan = new DirectScan(List.of(DirectScan.ScanFile.of(file.location(), file.fileSizeInBytes())),
        table.io(), projected, file.recordCount());
    Optional<VectorSchemaRoot> root = decode(scan, file.location(), allocator);
    root.ifPresent(read -> LOG.debug("Read {} of {} with the page decoder", file.location(), table.name()));
    return root;
  }

  /**
   * Reads the live rows of one data file of a scan with the page decoder, its position deletes and
   * deletion vectors applied: for a reader that streams a snapshot file by file. The rows are the
   * engine's rows of that file, in file order.
   *
   * @param table the table, for its schema history
   * @param task the file's scan task, whole (not a split), with its deletes
   * @param allocator where the root's memory is accounted
   * @return the file's live rows, the caller's to close; empty when only the engine reads it
   */
  public static Optional<VectorSchemaRoot> readTask(Table table, FileScanTask task, Schema projected,
      BufferAllocator allocator) {
    DataFile file = task.file();
    if (forced == ReadStrategy.ENGINE || !PagedColumnsRead.enabled() || file.format() != FileFormat.PARQUET
        || projected.columns().isEmpty() || file.recordCount() > Integer.MAX_VALUE
        || task.start() != 0 || task.length() < file.fileSizeInBytes()
        || task.deletes().stream().anyMatch(d -> d.content() == FileContent.EQUALITY_DELETES)
        || DirectScan.declines(table, projected).isPresent()) {
      return Optional.empty();
    }
    Map<Integer, FileScanTask> deleted = task.deletes().isEmpty() ? Map.of() : Map.of(0, task);
    DirectScan scan = new DirectScan(List.of(DirectScan.ScanFile.of(file.location(), file.fileSizeInBytes())),
        table.io(), projected, file.recordCount(), new long[] {file.recordCount()}, deleted);
    LiveRuns live = deleted.isEmpty() ? null : LiveRuns.of(table, projected, scan.fileRows(), deleted);
    if (!deleted.isEmpty() && live == null) {
      return Optional.empty();
    }
    return decode(scan, file.location(), allocator).map(root -> live == null ? root : live.keep(root));
  }

  /** The page decoder's read of a scan, counted; empty when it gave up or failed. */
  private static Optional<VectorSchemaRoot> decode(DirectScan scan, String what, BufferAllocator allocator) {
    try {
      Optional<VectorSchemaRoot> root = PagedColumnsRead.read(scan, allocator);
      if (root.isPresent()) {
        READS.incrementAndGet(ReadStrategy.PAGE_DECODER.ordinal());
      } else {
        LOG.debug("The page decoder gave up reading {}: its files hold what it does not read as the engine does",
            what);
      }
      return root;
    } catch (RuntimeException e) {
      LOG.warn("The page decoder could not read {}; reading it another way", what, e);
      return Optional.empty();
    }
  }

  private static Plan engine(String why) {
    return new Plan(ReadStrategy.ENGINE, "engine: " + why, null, null);
  }

  /** The reads whose rows a strategy gave, in this JVM, for tests that must know which ran. */
  public static long reads(ReadStrategy strategy) {
    return READS.get(strategy.ordinal());
  }

  /**
   * Makes every read in this JVM ask only one strategy (then the engine), until the returned handle is
   * closed, so that a test can run one strategy on any table.
   *
   * @return closes to restore the planner's own choice
   */
  public static AutoCloseable force(ReadStrategy strategy) {
    forced = strategy;
    return () -> forced = null;
  }
}
