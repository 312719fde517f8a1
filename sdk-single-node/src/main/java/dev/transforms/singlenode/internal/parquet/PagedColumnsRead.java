package dev.transforms.singlenode.internal.parquet;

import dev.transforms.singlenode.internal.plan.DirectScan;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.internal.arrowcpp.ArrowDatasetRead;
import dev.transforms.singlenode.internal.plan.ReadStrategy;
import dev.transforms.singlenode.internal.plan.SnapshotRead;
import dev.transforms.singlenode.internal.parquet.ArrowColumnPages;
import dev.transforms.singlenode.internal.read.ColumnHalves;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * A large read whose columns are decoded page by page on two threads ({@link ArrowColumnPages}),
 * while Arrow C++ scanners read the columns the page decoder leaves out.
 *
 * <p>A reader that decodes a column chunk on one thread takes, on a file of one large row group (what
 * Iceberg's writers make), the time of its heaviest column, and two of them side by side take the time
 * of the heavier half: Arrow C++ took about 60 ms for the million strings of the benchmark's 3-column
 * table, while the two other columns took 25 and 30. Cut into units of pages, every column is work
 * both threads share, and nothing waits on one column.
 *
 * <p>The work is two queues: the Arrow C++ scans of the columns left out (in two parts when they weigh
 * enough, {@link ColumnHalves}), which the calling thread takes first, and the units of pages, the
 * most rows first, which a background thread takes first; each thread takes from the other queue
 * when its own is empty. Arrow C++ scans run one at a time that way, beside the pages rather than
 * beside each other. Strings are then laid into their vectors on both threads.
 *
 * <p>The read gives up (empty, nothing left allocated) when an Arrow C++ scan gives up, or when a
 * column turns out to hold pages the page decoder does not read ({@link ArrowColumnPages.Unsupported});
 * the planner then hands the read on.
 */
public final class PagedColumnsRead implements SnapshotRead {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PagedColumnsRead.class);

  /**
   * The JVM system property that turns the page decoder off when {@code false}:
   * {@code -Dtransforms.arrow-page-decoder=false}; Arrow C++ (or DuckDB) then decodes every column.
   */
  public static final String SWITCH = "transforms.arrow-page-decoder";

  /** The strategy, for {@code ReadPlanner}'s table. */
  public PagedColumnsRead() {}

  @Override
  public ReadStrategy strategy() {
    return ReadStrategy.PAGE_DECODER;
  }

  @Override
  public Optional<String> declines(Table table, DirectScan scan, boolean forced) {
    if (!enabled()) {
      return Optional.of("turned off (-D" + SWITCH + "=false, or one core)");
    } else if (!forced && scan.rows() < ColumnHalves.TWO_SCANS_MIN_ROWS) {
      return Optional.of(String.format("%,d rows, under %,d: one scanner reads them as fast", scan.rows(),
          ColumnHalves.TWO_SCANS_MIN_ROWS));
    }
    return Optional.empty();
  }

  /**
   * Whether the page decoder may read: the system property {@value #SWITCH} is not {@code false}, and
   * there are two cores to read on.
   *
   * @return whether the decoder may read
   */
  public static boolean enabled() {
    return !"false".equalsIgnoreCase(System.getProperty(SWITCH, "true").strip())
        && Runtime.getRuntime().availableProcessors() >= 2;
  }

  /**
   * Reads every row of the scan, or gives up: the columns the page decoder leaves out are read by Arrow
   * C++ when it is loaded and reads them as the engine does; otherwise the decoder must read them all.
   */
  @Override
  public Optional<VectorSchemaRoot> read(Table table, DirectScan scan, BufferAllocator allocator) {
    // strings are staged on the heap before they are laid into their vector: columns that would take
    // more than a quarter of the heap are left to the other reader, whose memory is native
    List<ArrowColumnPages> paged = withinStaging(ArrowColumnPages.plan(scan.files(), scan.schema().columns()),
        Runtime.getRuntime().maxMemory() / 4);
    if (paged.isEmpty()) {
      return Optional.empty();
    }
    List<Types.NestedField> others = new ArrayList<>(scan.schema().columns());
    paged.forEach(plan -> others.remove(plan.column()));
    Function<List<Types.NestedField>, Optional<VectorSchemaRoot>> scanner =
        others.isEmpty() ? null : ArrowDatasetRead.scanner(table, scan, others, allocator);
    if (scanner == null && !others.isEmpty()) {
      return Optional.empty();
    }
    List<List<Types.NestedField>> scans = others.isEmpty() ? List.of() : ColumnHalves.split(others);
    return new Work(scan, paged, scans, scanner, allocator).run();
  }

  /**
   * The plans to read with the page decoder: every column of fixed-width values, and the string and
   * binary columns, in order, while the bytes they stage on the heap ({@link
   * ArrowColumnPages#uncompressedBytes}) stay within the budget; a column past it is left out, and
   * the columns after it are still weighed.
   *
   * @param plans the columns' plans
   * @param stagingBytes the most the staged columns may take together
   * @return the plans kept, in their order
   */
  public static List<ArrowColumnPages> withinStaging(List<ArrowColumnPages> plans, long stagingBytes) {
    List<ArrowColumnPages> kept = new ArrayList<>();
    long staging = 0;
    for (ArrowColumnPages plan : plans) {
      if (!plan.staged()) {
        kept.add(plan);
      } else if (staging + plan.uncompressedBytes() <= stagingBytes) {
        staging += plan.uncompressedBytes();
        kept.add(plan);
      }
    }
    return kept;
  }

  /** The tasks of one read and their results. */
  private static final class Work {
    private final DirectScan scan;
    private final List<ArrowColumnPages> paged;
    private final List<List<Types.NestedField>> scans;
    private final Function<List<Types.NestedField>, Optional<VectorSchemaRoot>> scanner;
    private final BufferAllocator allocator;
    /** Per task: the scans' roots first, then each paged column's parts. */
    private final Object[] results;
    private final int[] firstUnit; // per paged column, its first task
    private final FieldVector[] vectors; // per paged column, allocated before the units are decoded
    private final int[] unitsLargestFirst; // the tasks of units of pages, the most rows first
    private int nextScan; // the next scan not taken
    private int nextUnit; // the next of unitsLargestFirst not taken
    private volatile boolean stopped;

    Work(DirectScan scan, List<ArrowColumnPages> paged, List<List<Types.NestedField>> scans,
        Function<List<Types.NestedField>, Optional<VectorSchemaRoot>> scanner, BufferAllocator allocator) {
      this.scan = scan;
      this.paged = paged;
      this.scans = scans;
      this.scanner = scanner;
      this.allocator = allocator;
      this.firstUnit = new int[paged.size()];
      this.vectors = new FieldVector[paged.size()];
      int tasks = scans.size();
      for (int c = 0; c < paged.size(); c++) {
        firstUnit[c] = tasks;
        tasks += paged.get(c).units();
      }
      this.results = new Object[tasks];
      List<int[]> units = new ArrayList<>(); // {task, column}
      for (int c = 0; c < paged.size(); c++) {
        for (int u = 0; u < paged.get(c).units(); u++) {
          units.add(new int[] {firstUnit[c] + u, c});
        }
      }
      // the longest first, so that no thread ends on a long one while the other waits
      units.sort(java.util.Comparator.comparingLong(
          (int[] task) -> paged.get(task[1]).unitRows(task[0] - firstUnit[task[1]])).reversed());
      this.unitsLargestFirst = units.stream().mapToInt(task -> task[0]).toArray();
    }

    Optional<VectorSchemaRoot> run() {
      Schema wanted = ArrowSchemas.toArrow(scan.schema());
      try {
        for (int c = 0; c < paged.size(); c++) {
          Field field = wanted.getFields().get(scan.schema().columns().indexOf(paged.get(c).column()));
          vectors[c] = paged.get(c).allocate(field, allocator);
        }
      } catch (RuntimeException | Error e) {
        closeAll(new ArrayList<>());
        throw e;
      }
      Future<?> helper = BackgroundThreads.run(() -> work(false));
      RuntimeException failure = null;
      try {
        work(true);
      } catch (RuntimeException | Error e) {
        failure = e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
      }
      try {
        BackgroundThreads.await(helper);
      } catch (RuntimeException | Error e) {
        if (failure == null) {
          failure = e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
        } else {
          failure.addSuppressed(e);
        }
      }
      List<FieldVector> made = new ArrayList<>();
      try {
        if (failure instanceof ArrowColumnPages.Unsupported) {
          LOG.debug("The page decoder leaves {} to another reader: {}", scan.files(), failure.getMessage());
          return Optional.empty();
        } else if (failure != null) {
          throw failure;
        }
        return assemble(wanted, made);
      } finally {
        closeAll(made);
      }
    }

    /**
     * Takes the next task until none is left, or another thread failed: with {@code scansFirst} the
     * scans, then units of pages; otherwise units of pages, then scans. Units go the largest first.
     */
    private void work(boolean scansFirst) {
      ArrowColumnPages.Buffers buffers = new ArrowColumnPages.Buffers(); // this thread's, unit after unit
      while (!stopped) {
        int task;
        synchronized (this) {
          boolean scansLeft = nextScan < scans.size();
          boolean unitsLeft = nextUnit < unitsLargestFirst.length;
          if (!scansLeft && !unitsLeft) {
            return;
          }
          task = scansLeft && (scansFirst || !unitsLeft) ? nextScan++ : unitsLargestFirst[nextUnit++];
        }
        try {
          results[task] = task < scans.size() ? scanner.apply(scans.get(task)) : decode(task, buffers);
        } catch (RuntimeException | Error e) {
          stopped = true;
          throw e;
        }
      }
    }

    private ArrowColumnPages.Part decode(int task, ArrowColumnPages.Buffers buffers) {
      int c = paged.size() - 1;
      while (firstUnit[c] > task) {
        c--;
      }
      return paged.get(c).decode(task - firstUnit[c], vectors[c], buffers);
    }

    /**
     * The root of every column, or empty when a scan gave up or read another row count. The vectors
     * made on the way are listed in {@code made} until the root owns them, so that the caller closes
     * what a failure leaves.
     */
    @SuppressWarnings("unchecked")
    private Optional<VectorSchemaRoot> assemble(Schema wanted, List<FieldVector> made) {
      Map<String, FieldVector> byName = new HashMap<>();
      boolean complete = true;
      for (int t = 0; t < scans.size(); t++) {
        Optional<VectorSchemaRoot> root = (Optional<VectorSchemaRoot>) results[t];
        results[t] = null;
        if (root.isEmpty()) {
          complete = false;
          continue;
        }
        made.addAll(root.get().getFieldVectors());
        complete &= root.get().getRowCount() == scan.rows();
        root.get().getFieldVectors().forEach(vector -> byName.put(vector.getName(), vector));
      }
      if (!complete) {
        return Optional.empty();
      }
      List<List<ArrowColumnPages.Part>> parts = new ArrayList<>();
      List<Runnable> copies = new ArrayList<>();
      for (int c = 0; c < paged.size(); c++) {
        ArrowColumnPages plan = paged.get(c);
        List<ArrowColumnPages.Part> columnParts = new ArrayList<>();
        for (int u = 0; u < plan.units(); u++) {
          columnParts.add((ArrowColumnPages.Part) results[firstUnit[c] + u]);
          results[firstUnit[c] + u] = null;
        }
        parts.add(columnParts);
        plan.prepare(columnParts, vectors[c]);
        if (plan.staged()) {
          FieldVector vector = vectors[c];
          columnParts.forEach(part -> copies.add(() -> plan.copy(part, vector)));
        }
      }
      onTwoThreads(copies);
      for (int c = 0; c < paged.size(); c++) {
        paged.get(c).finish(parts.get(c), vectors[c]);
        byName.put(vectors[c].getName(), vectors[c]);
      }
      List<FieldVector> columns = new ArrayList<>();
      for (Field field : wanted.getFields()) {
        columns.add(byName.get(field.getName()));
      }
      VectorSchemaRoot root = new VectorSchemaRoot(wanted.getFields(), columns, (int) scan.rows());
      made.clear(); // the root owns them
      java.util.Arrays.fill(vectors, null);
      return Optional.of(root);
    }

    /** Runs the tasks on this thread and a background one, each taking the next until none is left. */
    private static void onTwoThreads(List<Runnable> tasks) {
      if (tasks.isEmpty()) {
        return;
      }
      java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
      Runnable worker = () -> {
        for (int t = next.getAndIncrement(); t < tasks.size(); t = next.getAndIncrement()) {
          tasks.get(t).run();
        }
      };
      Future<?> helper = BackgroundThreads.run(worker);
      try {
        worker.run();
      } catch (RuntimeException | Error e) {
        next.set(tasks.size()); // the helper stops at its next task
        try {
          BackgroundThreads.await(helper);
        } catch (RuntimeException | Error other) {
          e.addSuppressed(other);
        }
        throw e;
      }
      BackgroundThreads.await(helper);
    }

    /** Closes what a failed read made: vectors taken out of roots, and roots still in the results. */
    @SuppressWarnings("unchecked")
    private void closeAll(List<FieldVector> made) {
      made.forEach(FieldVector::close);
      for (FieldVector vector : vectors) {
        if (vector != null) {
          vector.close();
        }
      }
      for (int t = 0; t < scans.size(); t++) {
        if (results[t] instanceof Optional<?> root) {
          ((Optional<VectorSchemaRoot>) root).ifPresent(VectorSchemaRoot::close);
        }
      }
    }
  }
}
