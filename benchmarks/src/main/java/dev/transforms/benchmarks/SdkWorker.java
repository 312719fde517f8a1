package dev.transforms.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.singlenode.arrow.ArrowBatchReader;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.edits.UpsertResult;
import dev.transforms.singlenode.internal.plan.ReadPlanner;
import dev.transforms.singlenode.internal.read.PageDecoderRead;
import dev.transforms.singlenode.internal.plan.ReadStrategy;
import dev.transforms.singlenode.internal.parquet.PageCopyStrategy;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.plan.RewriteRequest;
import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The SDK's side of the side-by-side benchmarks, speaking the commands of PyIceberg's
 * {@code benchmarks/pyiceberg/worker.py}: in the harness's own JVM (warm, long-lived), or as a process
 * of its own ({@link #main}: one JSON command per line on standard input, one answer per line on standard
 * output) for the cold runs, where every round starts a fresh JVM as a build does.
 *
 * <p>Commands: {@code open} ({@code "warehouse"}: the embedded catalog of a folder; or {@code "config"}, a
 * {@code transforms.properties}, and {@code "catalog"}, the name of a catalog it defines), {@code load}
 * ({@code "name"}, {@code "path"} of an Arrow IPC file), {@code drop}, {@code upsert} ({@code "table"},
 * {@code "source"}; joined on {@code id}), {@code delete} ({@code "filter"}), {@code scan} ({@code arrow()}:
 * {@link ArrowTableReader#readAll}), {@code scan_batches} ({@code arrowReader(batch)}:
 * {@link ArrowTableReader#openBatches}, rows counted; {@code "batch"}, default 65,536), {@code plan} (the
 * read and rewrite planners' choice for a table and why, untimed) and {@code quit}.
 *
 * <p>As in the Python worker, the table is loaded from the catalog before the clock starts and only the
 * SDK's call is timed ({@code "ms"}). Every timed answer carries the planners' counters that moved during
 * the call ({@code "strategies"}, such as {@code {"read: page decoder": 1}}); with {@code "memory": true},
 * also the peaks of the call ({@code "heap_peak_mb"}, {@code "rss_peak_mb"}, see {@link MemoryPeaks}) and the
 * resident size it started from ({@code "rss_start_mb"}).
 */
public final class SdkWorker implements SideBySide.Side {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final BufferAllocator allocator;
  private final Map<String, VectorSchemaRoot> sources = new HashMap<>();
  private Catalog catalog;
  private Catalogs opened;

  /**
   * An in-process worker on a catalog the harness has open.
   *
   * @param catalog the catalog of the tables; null until an {@code open} command
   * @param allocator where sources and reads are allocated
   */
  SdkWorker(Catalog catalog, BufferAllocator allocator) {
    this.catalog = catalog;
    this.allocator = allocator;
  }

  /**
   * Runs the worker as a process of its own: commands on standard input, answers on standard output.
   * Whatever else is printed goes to standard error.
   *
   * @param args none
   */
  public static void main(String[] args) throws IOException {
    PrintStream answers = System.out;
    System.setOut(System.err);
    try (BufferAllocator root = PyIcebergBenchmark.newAllocator();
        SdkWorker worker = new SdkWorker(null, root);
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = commands.readLine(); line != null; line = commands.readLine()) {
        if (line.isBlank()) {
          continue;
        }
        ObjectNode command = (ObjectNode) JSON.readTree(line);
        if (command.path("cmd").asText().equals("quit")) {
          break;
        }
        ObjectNode answer;
        try {
          answer = worker.handle(command);
        } catch (RuntimeException | Error failure) {
          failure.printStackTrace();
          answer = JSON.createObjectNode().put("ok", false).put("error", failure.toString());
        }
        answers.println(JSON.writeValueAsString(answer));
        answers.flush();
      }
    }
  }

  @Override
  public String label() {
    return "SDK";
  }

  @Override
  public JsonNode call(ObjectNode command) {
    ObjectNode answer = handle(command);
    if (!answer.path("ok").asBoolean()) {
      throw new IllegalStateException("SDK failed on " + command + ": " + answer.path("error").asText());
    }
    return answer;
  }

  /** The SDK's calls are not stopped at a limit: they run in this JVM. */
  @Override
  public Optional<JsonNode> call(ObjectNode command, Duration limit) {
    return Optional.of(call(command));
  }

  /**
   * Runs one command.
   *
   * @return the answer, {@code "ok": true} and what the command returned
   */
  ObjectNode handle(ObjectNode command) {
    ObjectNode answer = JSON.createObjectNode().put("ok", true);
    String cmd = command.path("cmd").asText();
    switch (cmd) {
      case "open" -> open(command);
      case "load" -> answer.put("rows", load(command.get("name").asText(), Path.of(command.get("path").asText())));
      case "drop" -> sources.remove(command.get("name").asText()).close();
      case "plan" -> plan(table(command), answer);
      case "upsert", "delete", "scan", "scan_batches" -> timed(cmd, command, answer);
      default -> throw new IllegalArgumentException("unknown command '" + cmd + "'");
    }
    return answer;
  }

  private void open(ObjectNode command) {
    TransformsConfig config = command.has("warehouse")
        ? TransformsConfig.embedded(Path.of(command.get("warehouse").asText()))
        : TransformsConfig.load(Optional.of(Path.of(command.get("config").asText())), Optional.empty(),
            Map.of(), Path.of("."));
    opened = new Catalogs(config);
    catalog = opened.catalog(command.path("catalog").asText(TransformsConfig.DEFAULT_CATALOG));
  }

  private Table table(ObjectNode command) {
    return catalog.loadTable(TableIdentifier.parse(command.get("table").asText()));
  }

  private void timed(String cmd, ObjectNode command, ObjectNode answer) {
    Table table = table(command);
    VectorSchemaRoot source = command.has("source") ? sources.get(command.get("source").asText()) : null;
    long[] before = counters();
    System.gc();
    MemoryPeaks peaks = command.path("memory").asBoolean() ? MemoryPeaks.start() : null;
    long start = System.nanoTime();
    switch (cmd) {
      case "upsert" -> {
        UpsertResult result = RowEdits.on(table).upsert(source, List.of("id"));
        answer.put("updated", result.rowsUpdated()).put("inserted", result.rowsInserted());
      }
      case "delete" -> answer.put("deleted", RowEdits.on(table).delete(command.get("filter").asText()));
      case "scan" -> {
        try (VectorSchemaRoot rows = ArrowTableReader.of(table).readAll(allocator)) {
          answer.put("rows", rows.getRowCount());
        }
      }
      default -> answer.put("rows", countBatches(table, command.path("batch").asInt(65_536)));
    }
    double ms = (System.nanoTime() - start) / 1e6;
    answer.put("ms", ms);
    if (peaks != null) {
      peaks.close();
      answer.put("heap_peak_mb", peaks.heapPeakMb()).put("rss_peak_mb", peaks.rssPeakMb())
          .put("rss_start_mb", peaks.rssStartMb());
    }
    ObjectNode strategies = answer.putObject("strategies");
    long[] after = counters();
    for (int i = 0; i < after.length; i++) {
      if (after[i] != before[i]) {
        strategies.put(COUNTER_NAMES.get(i), after[i] - before[i]);
      }
    }
  }

  private long countBatches(Table table, int batch) {
    long rows = 0;
    try (ArrowBatchReader batches = ArrowTableReader.of(table).batchSize(batch).openBatches(allocator)) {
      while (batches.loadNextBatch()) {
        rows += batches.getVectorSchemaRoot().getRowCount();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /** What the planners would choose for the table's whole read and for a rewrite of its first file. */
  private static void plan(Table table, ObjectNode answer) {
    answer.put("read", ReadPlanner.standard().plan(table.newScan(), table.schema(), true, PageDecoderRead.INSTANCE)
        .reason());
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        // the page copy is the one strategy whose choice depends on more than the file's facts
        answer.put("rewrite", RewritePlanner.standard().plan(new RewriteRequest(table, table.schema(), task, false,
            true), List.of(PageCopyStrategy.INSTANCE)).reason());
        break;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The names of {@link #counters()}, in order. */
  static final List<String> COUNTER_NAMES = counterNames();

  private static List<String> counterNames() {
    List<String> names = new ArrayList<>();
    for (ReadStrategy strategy : ReadStrategy.values()) {
      names.add("read: " + strategy.label());
    }
    for (RewriteStrategy strategy : RewriteStrategy.values()) {
      names.add("rewrite: " + strategy.label());
    }
    return List.copyOf(names);
  }

  /** The planners' counters in this JVM: reads by read strategy, then rewrites by rewrite strategy. */
  private static long[] counters() {
    long[] counts = new long[COUNTER_NAMES.size()];
    int i = 0;
    for (ReadStrategy strategy : ReadStrategy.values()) {
      counts[i++] = ReadPlanner.standard().reads(strategy);
    }
    for (RewriteStrategy strategy : RewriteStrategy.values()) {
      counts[i++] = RewritePlanner.standard().rewrites(strategy);
    }
    return counts;
  }

  /** Reads an Arrow IPC file of one or more batches into one root of this worker's. */
  private long load(String name, Path file) {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
      VectorSchemaRoot read = reader.getVectorSchemaRoot();
      VectorSchemaRoot all = null;
      while (reader.loadNextBatch()) {
        if (all == null) {
          List<FieldVector> moved = new ArrayList<>();
          for (FieldVector vector : read.getFieldVectors()) {
            var transfer = vector.getTransferPair(allocator);
            transfer.transfer();
            moved.add((FieldVector) transfer.getTo());
          }
          all = new VectorSchemaRoot(read.getSchema(), moved, read.getRowCount());
        } else {
          throw new IllegalArgumentException(file + " holds more than one batch; the harness writes one");
        }
      }
      if (all == null) {
        throw new IllegalArgumentException(file + " holds no batch");
      }
      VectorSchemaRoot previous = sources.put(name, all);
      if (previous != null) {
        previous.close();
      }
      return all.getRowCount();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file, e);
    }
  }

  /** Closes the sources this worker loaded and the catalogs it opened. */
  @Override
  public void close() {
    sources.values().forEach(VectorSchemaRoot::close);
    sources.clear();
    if (opened != null) {
      opened.close();
    }
  }
}
