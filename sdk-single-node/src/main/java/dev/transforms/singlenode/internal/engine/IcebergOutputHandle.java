package dev.transforms.singlenode.internal.engine;

import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.CommittedFiles;
import dev.transforms.runtime.spi.OutputShapes;
import dev.transforms.runtime.spi.TransformRun;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import dev.transforms.singlenode.internal.duckdb.TableConformer;
import dev.transforms.singlenode.internal.threads.CallerRunsExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;

/**
 * The engine's {@link IcebergOutput}: writes to the staging branch of an existing table, or creates
 * the table on the first build.
 */
final class IcebergOutputHandle implements IcebergOutput {

  private final TransformRun run;
  private final BoundOutput bound;
  /** Whether DuckDB may write the output's Parquet files ({@code duckdb.parquet}, library present). */
  private final boolean duckdbParquet;
  private UnaryOperator<PartitionSpec.Builder> partitioning;

  IcebergOutputHandle(TransformRun run, BoundOutput bound, boolean duckdbParquet) {
    this.run = run;
    this.bound = bound;
    this.duckdbParquet = duckdbParquet;
  }

  /** The output's table as this run writes it: the existing one, or the one this run created. */
  private Optional<Table> staged() {
    Optional<Table> table = run.staging().table(bound);
    table.ifPresent(Table::refresh);
    return table;
  }

  @Override
  public Optional<Table> table() {
    return staged().map(t -> new StagedTable(t, describe(), run.branch(bound), run.commitProperties(),
        () -> run.staging().edited(bound)));
  }

  @Override
  public IcebergOutput partitionedBy(UnaryOperator<PartitionSpec.Builder> fields) {
    this.partitioning = java.util.Objects.requireNonNull(fields, "fields");
    return this;
  }

  private PartitionSpec spec(Schema schema) {
    if (partitioning == null) {
      return PartitionSpec.unpartitioned();
    }
    try {
      return partitioning.apply(PartitionSpec.builderFor(schema)).build();
    } catch (IllegalArgumentException | org.apache.iceberg.exceptions.ValidationException e) {
      throw new IllegalArgumentException("Cannot partition output " + bound.parameter().requirePath() + ": "
          + e.getMessage() + "; columns: " + schema.columns().stream().map(c -> c.name()).toList(), e);
    }
  }

  @Override
  public void writeTable(VectorSchemaRoot data) {
    writeTable(List.of(data));
  }

  @Override
  public void writeTable(Iterable<VectorSchemaRoot> batches) {
    ArrowTableWriter writer = null;
    Table target = null;
    try {
      for (VectorSchemaRoot batch : batches) {
        if (writer == null) {
          target = target(batch.getSchema());
          writer = writerFor(target);
        }
        writer.write(batch);
      }
      if (writer == null) {
        throw new IllegalArgumentException("writeTable needs at least one batch, to know the schema of "
            + bound.parameter().requirePath());
      }
      List<DataFile> files = writer.complete();
      commit(target, files);
    } finally {
      if (writer != null) {
        writer.close();
      }
    }
  }

  @Override
  public void writeTable(ArrowReader batches) {
    java.util.Objects.requireNonNull(batches, "Argument batches of writeTable must not be null");
    String path = bound.parameter().requirePath().toString();
    try {
      VectorSchemaRoot root = batches.getVectorSchemaRoot();
      Optional<Table> staged = staged();
      TableConformer conformer = null;
      Table target;
      if (staged.isPresent()) {
        target = staged.get();
        conformer = TableConformer.of(path, target.schema(), root.getSchema());
        if (!fits(target, conformer.schema())) {
          target = OutputShapes.fit(run, bound, conformer.writtenSchema(), partitioning());
          conformer = TableConformer.of(path, target.schema(), root.getSchema());
        }
        checkWritable(target, conformer.schema());
      } else {
        target = target(root.getSchema());
      }
      try (ArrowTableWriter writer = writerFor(target)) {
        if (conformer == null) {
          writer.write(batches); // one stream: DuckDB, when it writes the table, makes one file of it
        } else {
          while (batches.loadNextBatch()) {
            try (VectorSchemaRoot fitted = conformer.conform(root, allocatorOf(root))) {
              writer.write(fitted);
            }
          }
        }
        commit(target, writer.complete());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the rows to write to " + path + ": " + e.getMessage(), e);
    }
  }

  /** A writer of the table's files; DuckDB may write them unless {@code duckdb.parquet} is false. */
  private ArrowTableWriter writerFor(Table target) {
    return ArrowTableWriter.builder(target).duckDbParquet(duckdbParquet).build();
  }

  private static org.apache.arrow.memory.BufferAllocator allocatorOf(VectorSchemaRoot root) {
    return root.getFieldVectors().isEmpty() ? null : root.getFieldVectors().get(0).getAllocator();
  }

  /**
   * The table to write to: the staged output, in the shape of the data where the build may give it
   * that shape (see {@link OutputShapes}), or a new one created from the Arrow schema.
   */
  private Table target(org.apache.arrow.vector.types.pojo.Schema arrowSchema) {
    Optional<Table> staged = staged();
    if (staged.isEmpty()) {
      Schema schema = ArrowSchemas.toIceberg(arrowSchema);
      return run.staging().createTable(bound, schema, spec(schema), Map.of());
    }
    Table table = staged.get();
    if (!fits(table, arrowSchema)) {
      table = OutputShapes.fit(run, bound, ArrowSchemas.toIceberg(arrowSchema), partitioning());
    }
    checkWritable(table, arrowSchema);
    return table;
  }

  /** Checks Arrow data fits the output, the error naming the output and the transform. */
  private void checkWritable(Table table, org.apache.arrow.vector.types.pojo.Schema arrowSchema) {
    try {
      ArrowSchemas.checkWritable(table.schema(), arrowSchema);
    } catch (dev.transforms.api.SchemaMismatchException e) {
      throw new dev.transforms.api.SchemaMismatchException("Cannot write to " + describe() + " of transform "
          + run.spec().name() + ": " + e.getMessage(), e.differences());
    }
  }

  private String describe() {
    return "output " + bound.parameter().requirePath() + " (" + bound.resolved().sparkIdentifier() + ")";
  }

  /**
   * Whether data of an Arrow schema goes into the table as it is: every column fits, the partitioning
   * asked for is the table's, and, in a full build, the data has every column of the table (a full
   * build gives the output exactly the columns it writes).
   */
  private boolean fits(Table table, org.apache.arrow.vector.types.pojo.Schema arrowSchema) {
    if (!ArrowSchemas.differences(table.schema(), arrowSchema).isEmpty()) {
      return false;
    }
    if (partitioning != null && !spec(table.schema()).compatibleWith(table.spec())) {
      return false;
    }
    java.util.Set<String> written = new java.util.HashSet<>();
    arrowSchema.getFields().forEach(f -> written.add(f.getName()));
    return run.isIncremental() || table.schema().columns().stream().allMatch(c -> written.contains(c.name()));
  }

  private Optional<java.util.function.Function<Schema, PartitionSpec>> partitioning() {
    return partitioning == null ? Optional.empty() : Optional.of(this::spec);
  }

  private void commit(Table table, List<DataFile> files) {
    String branch = run.branch(bound);
    boolean replace = !run.isIncremental() && (bound.existing().isPresent() || hasData(table, branch));
    if (replace) {
      OverwriteFiles overwrite = table.newOverwrite().overwriteByRowFilter(Expressions.alwaysTrue());
      files.forEach(overwrite::addFile);
      run.commitProperties().forEach(overwrite::set);
      CommittedFiles.check(overwrite, table, files);
      CallerRunsExecutor.inCallerWhenSmall(overwrite, table, branch).toBranch(branch).commit();
    } else {
      AppendFiles append = table.newAppend();
      files.forEach(append::appendFile);
      run.commitProperties().forEach(append::set);
      CommittedFiles.check(append, table, files);
      CallerRunsExecutor.inCallerWhenSmall(append, table, branch).toBranch(branch).commit();
    }
  }

  /** Whether this run already wrote rows to the staging branch of a table it created. */
  private static boolean hasData(Table table, String branch) {
    table.refresh();
    org.apache.iceberg.SnapshotRef ref = table.refs().get(branch);
    org.apache.iceberg.Snapshot head = ref == null ? null : table.snapshot(ref.snapshotId());
    return head != null && !"0".equals(head.summary().getOrDefault("total-data-files", "0"));
  }

  @Override
  public String toString() {
    return "IcebergOutput(" + bound.parameter().requirePath() + ")";
  }
}
