package dev.transforms.spark;

import dev.transforms.api.ReadMode;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.spi.BoundInput;
import dev.transforms.runtime.Locations;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalLong;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * An {@code @Input} or incremental {@code @TableInput}: a table when the path names one, files
 * otherwise (registered as a temporary view named after the path).
 */
final class IncrementalInputHandle implements IncrementalTransformInput {
  private final SparkSession session;
  private final BoundInput input;
  private final RunScope scope;
  private Dataset<Row> files;

  IncrementalInputHandle(SparkSession session, BoundInput input, RunScope scope) {
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
    return current.isPresent() ? TableReads.atSnapshot(session, identifier(), current.getAsLong())
        : session.table(identifier());
  }

  private Dataset<Row> previous() {
    OptionalLong previous = input.previousSnapshotId();
    if (input.table().isEmpty() || previous.isEmpty()) {
      return TableReads.emptyLike(session, current());
    }
    return TableReads.atSnapshot(session, identifier(), previous.getAsLong());
  }

  private Dataset<Row> added() {
    OptionalLong previous = input.previousSnapshotId();
    OptionalLong current = input.currentSnapshotId();
    if (!input.readsAdded() || input.table().isEmpty() || previous.isEmpty()) {
      // A full build, files, or a table that was empty when last read: everything is new.
      return current();
    }
    if (current.isEmpty() || previous.getAsLong() == current.getAsLong()) {
      return TableReads.emptyLike(session, current());
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
    String uri = Locations.of(location);
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
