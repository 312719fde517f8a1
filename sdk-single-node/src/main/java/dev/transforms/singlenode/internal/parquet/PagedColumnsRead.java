package dev.transforms.singlenode.internal.parquet;

import dev.transforms.singlenode.internal.schema.ArrowSchemaMapping;
import dev.transforms.singlenode.internal.plan.DirectScan;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The engine's native read: every column of a snapshot's files decoded page by page into Arrow vectors
 * ({@link ArrowColumnPages}), on the calling thread and a background one, the columns found by field id.
 *
 * <p>A reader that decodes a column chunk on one thread (Arrow C++'s, DuckDB's) takes, on a file of one
 * large row group (what Iceberg's writers make), the time of its heaviest column. Cut into units of
 * pages, every column is work both threads share, and nothing waits on one column: the units go the
 * most rows first, each thread taking the next; strings are then laid into their vectors on both
 * threads.
 *
 * <p>The read gives up (empty, nothing left allocated) when a column is of a type or stored in a way it
 * does not decode, or turns out to hold pages it does not read ({@link ArrowColumnPages.Unsupported}),
 * or when its strings would take more than a quarter of the heap while staged; the engine's reader then
 * reads.
 */
public final class PagedColumnsRead {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PagedColumnsRead.class);

  /**
   * The JVM system property that turns the page decoder off when {@code false}:
   * {@code -Dtransforms.arrow-page-decoder=false}; the engine's reader then reads every snapshot.
   */
  public static final String SWITCH = "transforms.arrow-page-decoder";

  private PagedColumnsRead() {}

  /**
   * Whether the page decoder may read: the system property {@value #SWITCH} is not {@code false}.
   *
   * @return whether the decoder may read
   */
  public static boolean enabled() {
    return !"false".equalsIgnoreCase(System.getProperty(SWITCH, "true").strip());
  }

  /**
   * Reads every row of the scan into a root the caller closes; empty, nothing left allocated, when a
   * column turns out to be one the page decoder does not read as the engine does.
   */
  public static Optional<VectorSchemaRoot> read(DirectScan scan, BufferAllocator allocator) {
    List<FileBytes> files = new ArrayList<>();
    try {
      for (DirectScan.ScanFile file : scan.files()) {
        files.add(FileBytes.open(scan.io(), file.location(), file.size()));
      }
      return read(scan, files, allocator);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open the files of " + scan.files(), e);
    } finally {
      for (FileBytes file : files) {
        try {
          file.close();
        } catch (IOException e) {
          LOG.debug("Cannot close {}", file, e);
        }
      }
    }
  }

  private static Optional<VectorSchemaRoot> read(DirectScan scan, List<FileBytes> files, BufferAllocator allocator) {
    List<ArrowColumnPages> paged = PagedColumnPlan.plan(files, scan.schema().columns());
    // strings are staged on the heap before they are laid into their vector
    long staged = paged.stream().filter(ArrowColumnPages::staged).mapToLong(ArrowColumnPages::uncompressedBytes).sum();
    if (paged.size() < scan.schema().columns().size() || staged > Runtime.getRuntime().maxMemory() / 4) {
      LOG.debug("The page decoder leaves {} to the engine: {} of {} columns decoded, {} bytes staged", scan.files(),
          paged.size(), scan.schema().columns().size(), staged);
      return Optional.empty();
    }
    return new Work(scan, paged, allocator).run();
  }

  /** The tasks of one read and their results. */
  private static final class Work {
    private final DirectScan scan;
    private final List<ArrowColumnPages> paged; // in the columns' order
    private final BufferAllocator allocator;
    private final ArrowColumnPages.Part[] results; // per task: a unit of one column
    private final int[] firstUnit; // per column, its first task
    private final FieldVector[] vectors; // per column, allocated before the units are decoded
    private final int[] unitsLargestFirst; // the tasks, the most rows first
    private int nextUnit; // the next of unitsLargestFirst not taken
    private volatile boolean stopped;

    Work(DirectScan scan, List<ArrowColumnPages> paged, BufferAllocator allocator) {
      this.scan = scan;
      this.paged = paged;
      this.allocator = allocator;
      this.firstUnit = new int[paged.size()];
      this.vectors = new FieldVector[paged.size()];
      int tasks = 0;
      List<int[]> units = new ArrayList<>(); // {task, column}
      for (int c = 0; c < paged.size(); c++) {
        firstUnit[c] = tasks;
        for (int u = 0; u < paged.get(c).units(); u++) {
          units.add(new int[] {tasks++, c});
        }
      }
      this.results = new ArrowColumnPages.Part[tasks];
      // the longest first, so that no thread ends on a long one while the other waits
      units.sort(java.util.Comparator.comparingLong(
          (int[] task) -> paged.get(task[1]).unitRows(task[0] - firstUnit[task[1]])).reversed());
      this.unitsLargestFirst = units.stream().mapToInt(task -> task[0]).toArray();
    }

    Optional<VectorSchemaRoot> run() {
      Schema wanted = ArrowSchemaMapping.toArrow(scan.schema());
      try {
        for (int c = 0; c < paged.size(); c++) {
          vectors[c] = paged.get(c).allocate(wanted.getFields().get(c), allocator);
        }
        RuntimeException failure = null;
        try {
          BackgroundThreads.both(this::work, this::work);
        } catch (RuntimeException e) {
          failure = e;
        }
        if (failure instanceof ArrowColumnPages.Unsupported) {
          LOG.debug("The page decoder leaves {} to the engine: {}", scan.files(), failure.getMessage());
          return Optional.empty();
        } else if (failure != null) {
          throw failure;
        }
        return Optional.of(assemble(wanted));
      } finally {
        for (FieldVector vector : vectors) {
          if (vector != null) {
            vector.close(); // what a failure left; assemble hands the root its vectors
          }
        }
      }
    }

    /** Decodes the next unit until none is left, or another thread failed. */
    private void work() {
      ArrowColumnPages.Buffers buffers = ArrowColumnPages.Buffers.ofThisThread(); // unit after unit, read after read
      try {
        while (!stopped) {
          int task;
          synchronized (this) {
            if (nextUnit == unitsLargestFirst.length) {
              return;
            }
            task = unitsLargestFirst[nextUnit++];
          }
          try {
            int c = paged.size() - 1;
            while (firstUnit[c] > task) {
              c--;
            }
            results[task] = paged.get(c).decode(task - firstUnit[c], vectors[c], buffers);
          } catch (RuntimeException | Error e) {
            stopped = true;
            throw e;
          }
        }
      } finally {
        buffers.giveBack();
      }
    }

    /** The root of every column, once every unit is decoded: strings laid into their vectors on two threads. */
    private VectorSchemaRoot assemble(Schema wanted) {
      List<List<ArrowColumnPages.Part>> parts = new ArrayList<>();
      List<Runnable> copies = new ArrayList<>();
      for (int c = 0; c < paged.size(); c++) {
        ArrowColumnPages plan = paged.get(c);
        List<ArrowColumnPages.Part> columnParts =
            List.of(Arrays.copyOfRange(results, firstUnit[c], firstUnit[c] + plan.units()));
        parts.add(columnParts);
        plan.prepare(columnParts, vectors[c]);
        FieldVector vector = vectors[c];
        columnParts.forEach(part -> copies.add(() -> plan.copy(part, vector)));
      }
      java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
      Runnable copy = () -> {
        for (int t = next.getAndIncrement(); t < copies.size(); t = next.getAndIncrement()) {
          copies.get(t).run();
        }
      };
      BackgroundThreads.both(copy, copy);
      List<FieldVector> columns = new ArrayList<>();
      for (int c = 0; c < paged.size(); c++) {
        paged.get(c).finish(parts.get(c), vectors[c]);
        columns.add(vectors[c]);
      }
      Arrays.fill(vectors, null); // the root owns them
      return new VectorSchemaRoot(wanted.getFields(), columns, (int) scan.rows());
    }
  }
}
