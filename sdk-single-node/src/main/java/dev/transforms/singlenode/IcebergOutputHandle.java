package dev.transforms.singlenode;

import dev.transforms.runtime.engine.BoundOutput;
import dev.transforms.runtime.engine.TransformRun;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.expressions.Expressions;

/**
 * The engine's {@link IcebergOutput}: writes to the staging branch of an existing table, or creates
 * the table on the first build.
 */
final class IcebergOutputHandle implements IcebergOutput {

  private final TransformRun run;
  private final BoundOutput bound;
  private final Catalog catalog;
  private Table created;
  private UnaryOperator<PartitionSpec.Builder> partitioning;

  IcebergOutputHandle(TransformRun run, BoundOutput bound) {
    this.run = run;
    this.bound = bound;
    this.catalog = run.build().catalogs().catalog(bound.resolved().catalog());
  }

  @Override
  public Optional<Table> table() {
    if (bound.existing().isPresent()) {
      Table table = bound.existing().get();
      table.refresh();
      return Optional.of(new StagedTable(table, run.stagingBranch(), run.commitProperties()));
    }
    return Optional.ofNullable(created);
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

  /** Fails when partitionedBy(...) asks for another partitioning than the existing table's. */
  private void checkPartitioning(Table table) {
    if (partitioning == null) {
      return;
    }
    PartitionSpec wanted = spec(table.schema());
    if (!table.spec().compatibleWith(wanted)) {
      throw new IllegalArgumentException("Output " + bound.parameter().requirePath() + " is partitioned by "
          + table.spec().fields() + ", but partitionedBy asks for " + wanted.fields() + "; a partition spec cannot "
          + "change during a build: evolve it outside the build (table.updateSpec()), or drop the table to "
          + "recreate it");
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
          writer = ArrowTableWriter.builder(target).build();
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

  /** The table to write to: the existing one (schema checked), or a new one created from the Arrow schema. */
  private Table target(org.apache.arrow.vector.types.pojo.Schema arrowSchema) {
    Table table;
    if (bound.existing().isPresent()) {
      table = bound.existing().get();
      table.refresh();
    } else if (created != null) {
      table = created;
    } else {
      Schema schema = ArrowSchemas.toIceberg(arrowSchema);
      created = catalog.createTable(bound.resolved().identifier(), schema, spec(schema));
      return created;
    }
    ArrowSchemas.checkWritable(table.schema(), arrowSchema);
    checkPartitioning(table);
    return table;
  }

  private void commit(Table table, List<DataFile> files) {
    String branch = bound.existing().isPresent() ? run.stagingBranch() : null;
    boolean replace = !run.isIncremental() && (bound.existing().isPresent() || hasData(table));
    if (replace) {
      OverwriteFiles overwrite = table.newOverwrite().overwriteByRowFilter(Expressions.alwaysTrue());
      files.forEach(overwrite::addFile);
      run.commitProperties().forEach(overwrite::set);
      if (branch != null) {
        overwrite.toBranch(branch);
      }
      overwrite.commit();
    } else {
      AppendFiles append = table.newAppend();
      files.forEach(append::appendFile);
      run.commitProperties().forEach(append::set);
      if (branch != null) {
        append.toBranch(branch);
      }
      append.commit();
    }
  }

  private static boolean hasData(Table table) {
    table.refresh();
    return table.currentSnapshot() != null;
  }

  @Override
  public String toString() {
    return "IcebergOutput(" + bound.parameter().requirePath() + ")";
  }
}
