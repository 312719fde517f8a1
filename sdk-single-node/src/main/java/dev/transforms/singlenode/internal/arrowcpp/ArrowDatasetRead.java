package dev.transforms.singlenode.internal.arrowcpp;

import dev.transforms.singlenode.internal.duckdb.CDataProbe;
import dev.transforms.singlenode.internal.duckdb.DuckDbLibrary;
import dev.transforms.singlenode.internal.plan.DirectScan;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.internal.parquet.ArrowColumnPages;
import dev.transforms.singlenode.internal.read.ColumnHalves;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import java.util.function.Function;
import dev.transforms.singlenode.internal.plan.ReadStrategy;
import dev.transforms.singlenode.internal.plan.SnapshotRead;

/**
 * Reads the rows of a {@link DirectScan} into one Arrow root with Arrow C++'s Parquet reader, through
 * Arrow Java's dataset module ({@code org.apache.arrow:arrow-dataset}, an optional dependency with
 * native libraries): the reader PyIceberg's {@code to_arrow()} uses, about twice as fast as DuckDB's at
 * handing over Arrow. The columns come out typed and tagged exactly as the engine's own reader gives
 * them ({@link ArrowSchemas#toArrow}), rows in the order of the files and of the rows in them.
 *
 * <p>Arrow C++ finds a file's columns by name, not by field id: where a column read was ever renamed (or
 * a name reused), each column is asked for by the name the files' footers give its field id, and the
 * vectors take the table's names. The Parquet field ids it reports are checked against the table's, and
 * the types against the engine's, and anything else gives the read up. Reads of 200,000 rows or
 * more are two scanners of about half the columns each, on two threads ({@code ColumnHalves}); the page
 * decoder, asked first, uses single scanners for the columns it leaves out ({@link #scanner}).
 *
 * <p>This class names none of the dataset module's classes, so that the engine may call it when the
 * optional module is absent; the reads themselves are in {@code ArrowDatasetScan}, which the JVM loads
 * only once {@link #ready} found the module.
 *
 * <p>Loading the native library takes about half a second, so the first call of {@link #ready} starts
 * it in the background and answers false: a JVM that reads once does not wait for it, and later reads
 * use it.
 */
public final class ArrowDatasetRead implements SnapshotRead {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ArrowDatasetRead.class);

  /**
   * The JVM system property that turns Arrow C++'s reads and decoding off when {@code false}:
   * {@code -Dtransforms.arrow-dataset=false}.
   */
  public static final String SWITCH = "transforms.arrow-dataset";

  private enum State { UNKNOWN, LOADING, READY, ABSENT }

  private static volatile State state = State.UNKNOWN;
  private static Future<?> loading;

  /** The strategy, for {@code ReadPlanner}'s table. */
  public ArrowDatasetRead() {}

  @Override
  public ReadStrategy strategy() {
    return ReadStrategy.ARROW_CPP;
  }

  @Override
  public Optional<String> declines(Table table, DirectScan scan, boolean forced) {
    if (!(forced ? awaitReady() : ready())) {
      return Optional.of(state == State.ABSENT ? "not on the class path, or no native library for this platform"
          : "turned off, or its native library is still loading (it loads in the background on first use)");
    }
    return cannotRead(table, scan.schema().columns());
  }

  @Override
  public Optional<VectorSchemaRoot> read(Table table, DirectScan scan, BufferAllocator allocator) {
    return fileNames(table, scan, scan.schema().columns())
        .flatMap(names -> ColumnHalves.inHalves(scan, part -> ArrowDatasetScan.readOne(scan, part, names, allocator)));
  }

  /**
   * An Arrow C++ scan of some columns of a scan's files, for the page decoder to read the columns it
   * leaves out; null when Arrow C++ is not loaded or does not read those columns as the engine does.
   *
   * @param table the table, for its schema history
   * @param scan the files
   * @param columns the columns the scan will be asked for
   * @param allocator where the roots' memory is accounted
   * @return the scan of a list of columns (empty when it gives up), or null
   */
  public static Function<List<Types.NestedField>, Optional<VectorSchemaRoot>> scanner(Table table, DirectScan scan,
      List<Types.NestedField> columns, BufferAllocator allocator) {
    Optional<Map<Integer, String>> names = !ready() || cannotRead(table, columns).isPresent() ? Optional.empty()
        : fileNames(table, scan, columns);
    return names.isEmpty() ? null : part -> ArrowDatasetScan.readOne(scan, part, names.get(), allocator);
  }

  /**
   * The name each column has in the files, by field id (Arrow C++ finds columns by name): the table's
   * names when no column read was ever renamed and no name ever meant another column, otherwise the names
   * the files' footers give; empty when a file lacks a column or the files name one differently.
   */
  static Optional<Map<Integer, String>> fileNames(Table table, DirectScan scan, List<Types.NestedField> columns) {
    Map<Integer, String> names = new HashMap<>();
    columns.forEach(column -> names.put(column.fieldId(), column.name()));
    if (!renamed(table, columns)) {
      return Optional.of(names);
    }
    names.clear();
    for (java.nio.file.Path file : scan.files()) {
      Optional<List<String>> inFile = ArrowColumnPages.namesIn(file, columns);
      for (int i = 0; inFile.isPresent() && i < columns.size(); i++) {
        String before = names.putIfAbsent(columns.get(i).fieldId(), inFile.get().get(i));
        if (before != null && !before.equals(inFile.get().get(i))) {
          return Optional.empty();
        }
      }
      if (inFile.isEmpty()) {
        return Optional.empty();
      }
    }
    return Optional.of(names);
  }

  /**
   * Whether Arrow C++'s reader is loaded and can read. The first call, when the dataset module is on
   * the class path, starts loading its native library in the background and answers false. Always
   * false when the system property {@value #SWITCH} is {@code false}.
   *
   * @return whether Arrow C++ may read
   */
  public static boolean ready() {
    if ("false".equalsIgnoreCase(System.getProperty(SWITCH, "true").strip())) {
      return false;
    }
    State now = state;
    if (now == State.READY) {
      return true;
    }
    if (now == State.UNKNOWN) {
      startLoading();
    }
    return false;
  }

  /**
   * Waits for the native library to be loaded or found missing (tests, and benchmarks that warm up).
   *
   * @return whether Arrow C++'s reader can read
   */
  public static boolean awaitReady() {
    if (!ready() && state == State.UNKNOWN) {
      return false; // switched off
    }
    Future<?> pending;
    synchronized (ArrowDatasetRead.class) {
      pending = loading;
    }
    if (pending != null) {
      try {
        BackgroundThreads.await(pending);
      } catch (RuntimeException e) {
        return false;
      }
    }
    return state == State.READY;
  }

  private static synchronized void startLoading() {
    if (state != State.UNKNOWN) {
      return;
    }
    if (!DuckDbLibrary.loadable("org.apache.arrow.dataset.jni.JniLoader")
        || !DuckDbLibrary.loadable("org.apache.arrow.c.Data")
        || !CDataProbe.works()) {
      state = State.ABSENT;
      return;
    }
    state = State.LOADING;
    loading = BackgroundThreads.run(() -> {
      try {
        ArrowDatasetScan.loadLibrary();
        state = State.READY;
      } catch (Throwable e) { // no native library for this platform, or it does not link
        state = State.ABSENT;
        LOG.debug("Arrow C++'s Parquet reader is not available; arrow() reads with DuckDB or the engine", e);
      }
    });
  }

  /** Why Arrow C++ does not read these columns as the engine does, or empty: a type it hands over otherwise. */
  static Optional<String> cannotRead(Table table, List<Types.NestedField> columns) {
    return columns.stream().filter(column -> !DirectScan.exportedAsEngine(column.type())).findFirst()
        .map(column -> "column " + column.name() + " is of type " + column.type() + ", which it hands over otherwise");
  }

  /** Whether a column was ever renamed, or its name ever belonged to another column. */
  private static boolean renamed(Table table, List<Types.NestedField> columns) {
    for (org.apache.iceberg.Schema past : table.schemas().values()) {
      for (Types.NestedField column : columns) {
        Types.NestedField byId = past.findField(column.fieldId());
        Types.NestedField byName = past.caseInsensitiveFindField(column.name());
        if ((byId != null && !byId.name().equals(column.name())) || (byName != null && byName.fieldId() != column.fieldId())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Where each wanted column is among the scanner's (found by its name in the files), or null when a
   * column is missing, is of another type than the engine's, or carries another field id than the table's.
   */
  static int[] positions(Schema read, List<Types.NestedField> columns, Map<Integer, String> fileNames,
      Schema wanted) {
    Map<String, Integer> byName = new HashMap<>();
    for (int i = 0; i < read.getFields().size(); i++) {
      byName.put(read.getFields().get(i).getName(), i);
    }
    int[] order = new int[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      Integer at = byName.get(fileNames.get(columns.get(i).fieldId()));
      if (at == null) {
        return null;
      }
      Field got = read.getFields().get(at);
      Field want = wanted.getFields().get(i);
      Integer id = ArrowSchemas.fieldId(got);
      if (!got.getType().equals(want.getType()) || !got.getChildren().isEmpty()
          || id == null || id != columns.get(i).fieldId()) {
        return null;
      }
      order[i] = at;
    }
    return order;
  }

}
