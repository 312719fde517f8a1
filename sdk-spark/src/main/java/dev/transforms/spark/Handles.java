package dev.transforms.spark;

import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.api.ReadMode;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.catalog.ResolvedTable;
import dev.transforms.runtime.engine.BoundInput;
import dev.transforms.runtime.engine.BoundOutput;
import dev.transforms.runtime.engine.TransformRun;
import dev.transforms.runtime.publish.CrashPoints;
import dev.transforms.runtime.publish.FolderPublisher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;

/** The implementations of the Spark handles. */
final class Handles {

  private Handles() {}

  /** A SQL string literal holding a text, for procedure arguments. */
  static String literal(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  static Dataset<Row> tableAtSnapshot(SparkSession session, String identifier, long snapshotId) {
    return session.read().option("snapshot-id", Long.toString(snapshotId)).table(identifier);
  }

  static Dataset<Row> emptyLike(SparkSession session, Dataset<Row> frame) {
    return session.createDataFrame(List.of(), frame.schema());
  }

  /** The context every Spark transform may declare. */
  record Context(SparkSession sparkSession, TransformRun run) implements SparkTransformContext {
    @Override
    public boolean isIncremental() {
      return run.isIncremental();
    }

    @Override
    public String transformName() {
      return run.spec().name();
    }

    @Override
    public String buildId() {
      return run.build().buildId();
    }

    @Override
    public String toString() {
      return "SparkTransformContext[" + transformName() + ", " + (isIncremental() ? "incremental" : "full") + "]";
    }
  }

  /** A {@code @TableInput} read as a table. */
  static final class TableInputHandle implements TableTransformInput {
    private final SparkSession session;
    private final BoundInput input;

    TableInputHandle(SparkSession session, BoundInput input) {
      this.session = session;
      this.input = input;
    }

    @Override
    public String identifier() {
      return input.resolved().sparkIdentifier();
    }

    @Override
    public String catalog() {
      return input.resolved().catalog();
    }

    @Override
    public String identifierLiteral() {
      return literal(identifier());
    }

    @Override
    public Dataset<Row> dataframe() {
      OptionalLong current = input.currentSnapshotId();
      return current.isPresent() ? tableAtSnapshot(session, identifier(), current.getAsLong())
          : session.table(identifier());
    }

    @Override
    public Dataset<Row> dataframeAtSnapshot(long snapshotId) {
      input.table().ifPresent(table -> {
        if (table.snapshot(snapshotId) == null) {
          throw new TransformsException("Input " + input.parameter().requirePath() + " (" + identifier()
              + ") has no snapshot " + snapshotId + " to read: it was expired, or belongs to another table; "
              + describeHistory(table));
        }
      });
      return tableAtSnapshot(session, identifier(), snapshotId);
    }

    @Override
    public Dataset<Row> dataframeAsOf(long epochMillis) {
      // Resolved here rather than by Spark's as-of-timestamp option, whose error does not say which input.
      Table table = input.table().orElseThrow();
      long snapshot;
      try {
        snapshot = SnapshotUtil.snapshotIdAsOfTime(table, epochMillis);
      } catch (IllegalArgumentException e) {
        throw new TransformsException("Input " + input.parameter().requirePath() + " (" + identifier()
            + ") has no snapshot at or before " + Instant.ofEpochMilli(epochMillis) + " to travel back to; "
            + describeHistory(table) + ". Older snapshots were expired, or the table did not exist yet", e);
      }
      return tableAtSnapshot(session, identifier(), snapshot);
    }

    /** When the history of a table's main branch starts. */
    private static String describeHistory(Table table) {
      List<HistoryEntry> history = table.history();
      return history.isEmpty() ? "the table has no snapshot yet"
          : "its history starts at " + Instant.ofEpochMilli(history.get(0).timestampMillis()) + " (snapshot "
              + history.get(0).snapshotId() + ")";
    }

    @Override
    public Dataset<Row> dataframeAsOf(Instant instant) {
      return dataframeAsOf(instant.toEpochMilli());
    }

    @Override
    public OptionalLong currentSnapshotId() {
      return input.currentSnapshotId();
    }

    @Override
    public OptionalLong previousSnapshotId() {
      return input.previousSnapshotId();
    }

    @Override
    public String toString() {
      return "TableTransformInput[" + input.parameter().requirePath() + " -> " + identifier() + "]";
    }
  }

  /**
   * An {@code @Input} or incremental {@code @TableInput}: a table when the path names one, files
   * otherwise (registered as a temporary view named after the path).
   */
  static final class InputHandle implements IncrementalTransformInput {
    private final SparkSession session;
    private final BoundInput input;
    private final RunScope scope;
    private Dataset<Row> files;

    InputHandle(SparkSession session, BoundInput input, RunScope scope) {
      this.session = session;
      this.input = input;
      this.scope = scope;
      if (input.table().isEmpty()) {
        files = readFiles();
        scope.registerView(path(), files);
      }
    }

    @Override
    public String path() {
      return input.parameter().requirePath().toString();
    }

    @Override
    public String identifier() {
      return input.table().isPresent() ? input.resolved().sparkIdentifier() : ResolvedTable.quote(path());
    }

    @Override
    public Dataset<Row> dataframe() {
      return dataframe(ReadMode.ADDED);
    }

    @Override
    public Dataset<Row> dataframe(ReadMode mode) {
      return switch (mode) {
        case CURRENT -> current();
        case PREVIOUS -> previous();
        case ADDED -> added();
      };
    }

    private Dataset<Row> current() {
      if (input.table().isEmpty()) {
        return files;
      }
      OptionalLong current = input.currentSnapshotId();
      return current.isPresent() ? tableAtSnapshot(session, identifier(), current.getAsLong())
          : session.table(identifier());
    }

    private Dataset<Row> previous() {
      OptionalLong previous = input.previousSnapshotId();
      if (input.table().isEmpty() || previous.isEmpty()) {
        return emptyLike(session, current());
      }
      return tableAtSnapshot(session, identifier(), previous.getAsLong());
    }

    private Dataset<Row> added() {
      OptionalLong previous = input.previousSnapshotId();
      OptionalLong current = input.currentSnapshotId();
      if (!input.readsAdded() || input.table().isEmpty() || previous.isEmpty()) {
        // A full build, files, or a table that was empty when last read: everything is new.
        return current();
      }
      if (current.isEmpty() || previous.getAsLong() == current.getAsLong()) {
        return emptyLike(session, current());
      }
      // The runtime checked that only appends happened in between; Iceberg's incremental scan would
      // silently skip deletes and overwrites otherwise. The end is explicit: the scan ignores branches.
      return session.read()
          .option("start-snapshot-id", Long.toString(previous.getAsLong()))
          .option("end-snapshot-id", Long.toString(current.getAsLong()))
          .table(identifier());
    }

    @Override
    public OptionalLong currentSnapshotId() {
      return input.currentSnapshotId();
    }

    @Override
    public OptionalLong previousSnapshotId() {
      return input.previousSnapshotId();
    }

    private Dataset<Row> readFiles() {
      Path location = input.fileLocation().orElseThrow();
      String format = input.parameter().format().toLowerCase(Locale.ROOT);
      String schema = input.parameter().schema();
      DataFrameReader reader = session.read();
      if (!schema.isBlank()) {
        reader = reader.schema(schema);
      } else if (!format.equals("parquet")) {
        throw new TransformsException("Input " + path() + " is " + format + " files, which need a declared schema: "
            + "add schema = \"col TYPE, ...\" to its @Input annotation");
      }
      String uri = location.toUri().toString();
      return switch (format) {
        case "parquet" -> reader.parquet(uri);
        case "csv" -> reader.option("header", "true").csv(uri);
        case "json" -> reader.json(uri);
        default -> throw new TransformsException("Input " + path() + " has format '" + format
            + "'; supported formats are parquet, csv and json");
      };
    }

    @Override
    public String toString() {
      return "IncrementalTransformInput[" + path() + " -> " + identifier() + "]";
    }
  }

  /** A {@code @TableOutput}. */
  static final class TableOutputHandle implements TableTransformOutput {
    private final SparkSession session;
    private final TransformRun run;
    private final BoundOutput output;

    TableOutputHandle(SparkSession session, TransformRun run, BoundOutput output) {
      this.session = session;
      this.run = run;
      this.output = output;
    }

    @Override
    public String identifier() {
      return output.resolved().sparkIdentifier();
    }

    @Override
    public String catalog() {
      return output.resolved().catalog();
    }

    @Override
    public String identifierLiteral() {
      return literal(identifier());
    }

    @Override
    public boolean exists() {
      return session.catalog().tableExists(identifier());
    }

    @Override
    public void writeDataFrame(Dataset<Row> dataframe) {
      if (!exists()) {
        dataframe.writeTo(identifier()).create();
        return;
      }
      StructType table = session.table(identifier()).schema();
      List<String> differences = SchemaCheck.differences(dataframe.schema(), table, false);
      if (!differences.isEmpty()) {
        throw new SchemaMismatchException("Cannot write to output " + output.parameter().requirePath() + " ("
            + identifier() + ") of transform " + run.spec().name() + ": the DataFrame does not fit the table. "
            + "Columns that differ:\n  - " + String.join("\n  - ", differences)
            + "\nSelect and cast the DataFrame's columns to the table's schema; nothing was written.", differences);
      }
      try {
        if (run.isIncremental()) {
          dataframe.writeTo(identifier()).append();
        } else {
          // Static mode: a full build replaces every row, not only the partitions the data touches.
          dataframe.writeTo(identifier()).option("overwrite-mode", "static").overwrite(functions.lit(true));
        }
      } catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException e) {
        throw new DatasetNotFoundException("Output " + output.parameter().requirePath() + " (" + identifier()
            + ") disappeared while transform " + run.spec().name() + " ran", e);
      }
    }

    @Override
    public Dataset<Row> dataframe() {
      if (!exists()) {
        throw new DatasetNotFoundException("Output " + output.parameter().requirePath() + " (" + identifier()
            + ") of transform " + run.spec().name() + " has no table yet; check exists() or write it first");
      }
      return session.table(identifier());
    }

    @Override
    public String toString() {
      return "TableTransformOutput[" + output.parameter().requirePath() + " -> " + identifier() + "]";
    }
  }

  /**
   * An {@code @Output} of files, written to a version folder of this build and published by an atomic
   * swap of the dataset's link when the transform returns ({@link FolderPublisher}).
   */
  static final class FileOutputHandle implements TransformOutput {
    private final SparkSession session;
    private final TransformRun run;
    private final BoundOutput output;
    private final RunScope scope;
    private final Path location;
    private final FolderPublisher folder;
    private StructType writtenSchema;

    FileOutputHandle(SparkSession session, TransformRun run, BoundOutput output, RunScope scope) {
      this.session = session;
      this.run = run;
      this.output = output;
      this.scope = scope;
      this.location = output.fileLocation().orElseThrow();
      this.folder = FolderPublisher.stage(location, run.build().buildId());
      folder.recovered().forEach(run.staging()::recovered);
      scope.stageFiles(this);
      if (Files.isDirectory(location)) {
        scope.registerView(path(), read(location, null));
      }
    }

    @Override
    public String path() {
      return output.parameter().requirePath().toString();
    }

    @Override
    public String identifier() {
      return ResolvedTable.quote(path());
    }

    private String format() {
      return output.parameter().format().toLowerCase(Locale.ROOT);
    }

    @Override
    public void writeDataFrame(Dataset<Row> dataframe) {
      String format = format();
      if (!List.of("parquet", "csv", "json").contains(format)) {
        throw new TransformsException("Output " + path() + " of transform " + run.spec().name() + " has format '"
            + format + "'; supported formats are parquet, csv and json");
      }
      DataFrameWriter<Row> writer = dataframe.write().mode(SaveMode.Overwrite).format(format);
      if (format.equals("csv")) {
        writer = writer.option("header", "true");
      }
      writer.save(folder.stagingFolder().toUri().toString());
      writtenSchema = dataframe.schema();
      CrashPoints.reached("files.written");
      scope.registerView(path(), read(folder.stagingFolder(), writtenSchema));
    }

    @Override
    public Dataset<Row> dataframe() {
      if (writtenSchema != null) {
        return read(folder.stagingFolder(), writtenSchema);
      }
      if (Files.isDirectory(location)) {
        return read(location, null);
      }
      throw new DatasetNotFoundException("Output " + path() + " of transform " + run.spec().name()
          + " has no files yet; write it first");
    }

    private Dataset<Row> read(Path folder, StructType schema) {
      DataFrameReader reader = session.read();
      if (schema != null) {
        reader = reader.schema(schema);
      }
      if (format().equals("csv")) {
        reader = reader.option("header", "true").option("inferSchema", Boolean.toString(schema == null));
      }
      return reader.format(format()).load(folder.toUri().toString());
    }

    /** Makes the written files the dataset's content, replacing the previous ones at once. */
    void publish() {
      if (writtenSchema == null) {
        folder.discard();
        return;
      }
      folder.publish();
    }

    /** Deletes the staged files. */
    void discard() {
      folder.discard();
    }
  }
}
