package dev.transforms.spark;

import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.CrashPoints;
import dev.transforms.runtime.Locations;
import dev.transforms.runtime.spi.StagedFolder;
import dev.transforms.runtime.spi.TransformRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * An {@code @Output} of files, written to a version folder of this build and published by an atomic
 * swap of the dataset's link when the transform returns ({@link StagedFolder}).
 */
final class FileOutputHandle implements TransformOutput {
  private final SparkSession session;
  private final TransformRun run;
  private final BoundOutput output;
  private final RunScope scope;
  private final Path location;
  private final StagedFolder folder;
  private StructType writtenSchema;

  FileOutputHandle(SparkSession session, TransformRun run, BoundOutput output, RunScope scope) {
    this.session = session;
    this.run = run;
    this.output = output;
    this.scope = scope;
    this.location = output.fileLocation().orElseThrow();
    this.folder = run.build().folders().apply(location);
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
    writer.save(Locations.of(folder.stagingFolder()));
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
    return reader.format(format()).load(Locations.of(folder));
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
