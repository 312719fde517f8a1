package dev.transforms.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.transforms.benchmarks.PyIcebergBenchmark.Shape;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * The tables of the side-by-side runs: made by Iceberg Java or by PyIceberg in one catalog both open,
 * filled with data files PyIceberg writes (one append per file), and brought back to their base snapshot
 * between runs. Every table lives in namespace {@value #NAMESPACE}.
 */
final class BenchTables {

  static final String NAMESPACE = "bench";

  private static final ObjectMapper JSON = new ObjectMapper();

  private BenchTables() {}

  /** The name PyIceberg's worker and the SDK's take: {@code bench.NAME}. */
  static String qualified(String name) {
    return NAMESPACE + "." + name;
  }

  /**
   * Creates a format-version 2 table with Iceberg Java, its row-level operations in one mode (Iceberg
   * Java writes {@code write.parquet.compression-codec=zstd} into a new table's properties).
   *
   * @param mode {@code copy-on-write} or {@code merge-on-read}
   */
  static Table createByJava(Catalog catalog, String name, Schema schema, String mode) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(TableProperties.FORMAT_VERSION, "2");
    properties.put(TableProperties.MERGE_MODE, mode);
    properties.put(TableProperties.UPDATE_MODE, mode);
    properties.put(TableProperties.DELETE_MODE, mode);
    return catalog.buildTable(TableIdentifier.of(NAMESPACE, name), schema).withProperties(properties).create();
  }

  /**
   * Creates a format-version 2 table with PyIceberg, which writes no codec into its properties (Iceberg
   * Java's writer then falls back to gzip; PyIceberg itself writes zstd).
   *
   * @return the table, loaded by Iceberg Java
   */
  static Table createByPyIceberg(SideBySide.Side py, Catalog catalog, String name, Schema schema) {
    ObjectNode command = JSON.createObjectNode().put("cmd", "create").put("table", qualified(name));
    try {
      command.set("schema", JSON.readTree(SchemaParser.toJson(schema)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    command.putObject("properties").put(TableProperties.FORMAT_VERSION, "2");
    py.call(command);
    return catalog.loadTable(TableIdentifier.of(NAMESPACE, name));
  }

  /**
   * Has PyIceberg append rows {@code 0..rows-1} of a shape, one append (so one Parquet file) of
   * {@code fileRows} rows at a time, as a team loading a table file by file has it.
   *
   * @param dir where the Arrow IPC files that carry the rows to the worker are written (and deleted)
   * @return the data files, in the order they were appended
   */
  static List<DataFile> appendByPyIceberg(LineWorker py, Table table, Shape shape, long rows, long fileRows,
      BufferAllocator allocator, Path dir) {
    for (long from = 0; from < rows; from += fileRows) {
      long to = Math.min(rows, from + fileRows);
      String source = "file_" + from;
      try (VectorSchemaRoot part = PyIcebergBenchmark.rows(allocator, shape, PyIcebergBenchmark.range(from, to), 0)) {
        load(py, dir, source, part);
      }
      py.call(JSON.createObjectNode().put("cmd", "append").put("table", qualified(name(table))).put("source", source));
      py.call(JSON.createObjectNode().put("cmd", "drop").put("name", source));
      py.forget("load", source);
      System.err.printf("PyIceberg appended rows %,d to %,d of %s%n", from, to, name(table));
    }
    table.refresh();
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> files.add(task.file()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    files.sort(Comparator.comparing(DataFile::dataSequenceNumber)); // each append its own sequence number
    return files;
  }

  /** Appends data files to a table one fast append each, in order: the history a file-by-file load leaves. */
  static void appendFileByFile(Table table, List<DataFile> files) {
    for (DataFile file : files) {
      Harness.appendFiles(table, List.of(file));
    }
  }

  /**
   * Writes rows into an Arrow IPC file and has a worker load them under a name; the file is kept for
   * workers started later (cold rounds, a worker started again after a time-out).
   *
   * @return the file
   */
  static Path writeSource(Path dir, String name, VectorSchemaRoot data) {
    Path file = dir.resolve(name + ".arrow");
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);
        ArrowFileWriter writer = new ArrowFileWriter(data, null, channel)) {
      writer.start();
      writer.writeBatch();
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + file, e);
    }
    return file;
  }

  /** Writes a source and has a worker load it, as a setup command it replays after a restart. */
  static void load(SideBySide.Side side, Path dir, String name, VectorSchemaRoot data) {
    Path file = writeSource(dir, name, data);
    ObjectNode command = loadCommand(name, file);
    JsonNode answer = side instanceof LineWorker worker ? worker.setUp(command) : side.call(command);
    check(answer.get("rows").asLong() == data.getRowCount(), "rows " + side.label() + " loaded from " + file);
  }

  static ObjectNode loadCommand(String name, Path file) {
    return JSON.createObjectNode().put("cmd", "load").put("name", name).put("path", file.toString());
  }

  /** The table's name without its namespace. */
  static String name(Table table) {
    return table.name().replaceAll(".*\\.", "");
  }

  /**
   * A table's base: the snapshot to come back to and the files it holds, which a reset keeps.
   *
   * @param files the data and delete files of the snapshot, their locations normalized
   */
  record Base(Table table, long snapshotId, Set<String> files) {}

  /** The table's current snapshot as its base. */
  static Base base(Table table) {
    table.refresh();
    Set<String> files = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(normalized(task.file().location()));
        task.deletes().stream().map(ContentFile::location).map(BenchTables::normalized).forEach(files::add);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Base(table, table.currentSnapshot().snapshotId(), files);
  }

  /**
   * Brings a table back to its base snapshot and deletes the files the runs since wrote under its
   * {@code data/} folder (not timed); the base's files stay.
   */
  static void reset(Base base) {
    Harness.rollBack(base.table(), base.snapshotId());
    if (base.table().io() instanceof SupportsPrefixOperations prefixes) {
      List<String> written = new ArrayList<>();
      try {
        for (FileInfo file : prefixes.listPrefix(base.table().location() + "/data/")) {
          if (!base.files().contains(normalized(file.location()))) {
            written.add(file.location());
          }
        }
      } catch (UncheckedIOException e) {
        if (!(e.getCause() instanceof FileNotFoundException)) { // a local table's folder before its first write
          throw e;
        }
      }
      written.forEach(base.table().io()::deleteFile);
    }
  }

  /** A location as both writers name it: {@code file:///x}, {@code file:/x} and {@code /x} are one file. */
  static String normalized(String location) {
    String path = location.startsWith("file:") ? location.substring("file:".length()) : location;
    return path.startsWith("/") ? "/" + path.replaceFirst("^/+", "") : path;
  }

  /** Live rows from the snapshot summary: records minus position and equality deletes. */
  static void checkLiveRows(Table table, long expected) {
    table.refresh();
    Map<String, String> summary = table.currentSnapshot().summary();
    long live = Long.parseLong(summary.getOrDefault("total-records", "0"))
        - Long.parseLong(summary.getOrDefault("total-position-deletes", "0"))
        - Long.parseLong(summary.getOrDefault("total-equality-deletes", "0"));
    check(live == expected, "live rows of " + table.name() + ": " + live + ", expected " + expected
        + " (summary " + summary + ")");
  }

  static void check(boolean condition, String what) {
    if (!condition) {
      throw new IllegalStateException("Check failed: " + what);
    }
  }
}
