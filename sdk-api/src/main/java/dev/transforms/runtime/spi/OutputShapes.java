package dev.transforms.runtime.spi;

import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.SchemaMismatchException;
import dev.transforms.runtime.internal.schema.SchemaEvolution;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;

/**
 * Gives a staged output the shape of what a run writes to it, the same way on both engines: a full
 * build takes the written columns (and the partitioning it asks for); an incremental build changes the
 * schema only as the output's {@link SchemaChangePolicy} allows, and never the partitioning. The
 * change is staged: readers see it when the run publishes, with the rows.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 */
public final class OutputShapes {

  private OutputShapes() {}

  /**
   * Fits a staged output to the columns a write brings.
   *
   * @param run the run
   * @param output the output, which has a staged table
   * @param written the columns the write brings, as an Iceberg schema (ids are ignored)
   * @param partitioning the partition spec the write asks for, built on the output's new schema; empty
   *     to keep the table's
   * @return the staged table, in the shape the rows are written with
   * @throws SchemaMismatchException naming each column at fault, when the rows cannot be written as the
   *     build and the policy allow; nothing was changed then
   */
  public static Table fit(TransformRun run, BoundOutput output, Schema written,
      Optional<Function<Schema, PartitionSpec>> partitioning) {
    if (!run.isIncremental()) {
      return replace(run, output, written, partitioning);
    }
    Table table = staged(run, output);
    int lastColumnId = ((HasTableOperations) table).operations().current().lastColumnId();
    SchemaChangePolicy policy = run.schemaChangePolicy(output);
    SchemaEvolution.Result result = SchemaEvolution.evolve(table.schema(), lastColumnId, written, policy,
        table.spec());
    List<String> problems = new ArrayList<>(result.problems());
    if (partitioning.isPresent()) {
      PartitionSpec wanted = partitioning.get().apply(result.schema());
      if (!wanted.compatibleWith(table.spec())) {
        problems.add("partitioning: the table is partitioned by " + table.spec().fields() + ", the write asks for "
            + wanted.fields() + "; an incremental build adds rows as the table is partitioned, only a full build "
            + "re-partitions");
      }
    }
    if (!problems.isEmpty()) {
      throw new SchemaMismatchException("Cannot write to " + describe(run, output) + ": the rows do not fit the "
          + "table, and this incremental build may not change it that way (schema-change policy "
          + policy.name().toLowerCase(Locale.ROOT) + "); " + wayOut(run) + ". Nothing was written:\n  - "
          + String.join("\n  - ", problems), problems);
    }
    if (!result.changes()) {
      return table;
    }
    return run.staging().reshape(output, result.schema(), result.lastColumnId(), Optional.empty());
  }

  /**
   * Gives a staged output the written columns and, when given, the partitioning: what a full build
   * does, and what a replace ({@code CREATE OR REPLACE}, {@code REPLACE TABLE}) does in any build.
   *
   * @param run the run
   * @param output the output, which has a staged table
   * @param written the columns written, as an Iceberg schema (ids are ignored)
   * @param partitioning the partition spec asked for, built on the new schema; empty to keep the table's
   * @return the staged table in its new shape
   * @throws SchemaMismatchException when the table's partitioning needs a column the rows do not have
   */
  public static Table replace(TransformRun run, BoundOutput output, Schema written,
      Optional<Function<Schema, PartitionSpec>> partitioning) {
    Table table = staged(run, output);
    int lastColumnId = ((HasTableOperations) table).operations().current().lastColumnId();
    SchemaEvolution.Result result = SchemaEvolution.replace(table.schema(), lastColumnId, written);
    Optional<PartitionSpec> spec = partitioning.map(f -> f.apply(result.schema()));
    boolean samePartitioning = spec.map(s -> s.compatibleWith(table.spec())).orElse(true);
    if (!result.changes() && samePartitioning) {
      return table;
    }
    if (spec.isEmpty()) {
      List<String> problems = SchemaEvolution.partitionProblems(table.spec(), result.schema());
      if (!problems.isEmpty()) {
        throw new SchemaMismatchException("Cannot write " + describe(run, output) + ": the rows change the columns "
            + "the output is partitioned by, and the write asks for no partitioning. Nothing was written:\n  - "
            + String.join("\n  - ", problems) + "\nWrite those columns, or give the new partitioning "
            + "(partitionedBy(...) on a single node; writeTo(...).partitionedBy(...).createOrReplace() in Spark).",
            problems);
      }
    }
    return run.staging().reshape(output, result.schema(), result.lastColumnId(), spec);
  }

  /**
   * What to do about a change an incremental build may not make, as errors say it.
   *
   * @param run the run
   * @return the way out, naming the transform
   */
  public static String wayOut(TransformRun run) {
    return wayOut(run.spec().name());
  }

  /**
   * What to do about a change an incremental build of a transform may not make.
   *
   * @param transform the transform's name
   * @return the way out, naming the transform
   */
  public static String wayOut(String transform) {
    return "build it in full (transforms build --full " + transform + ", or a new semantic version in "
        + "@Incremental), or let the output change (@TableOutput(onSchemaChange = ...), or build.on-schema-change)";
  }

  private static Table staged(TransformRun run, BoundOutput output) {
    return run.staging().table(output).orElseThrow(() -> new IllegalStateException(
        "Output " + output.parameter().requirePath() + " has no table in this run yet"));
  }

  private static String describe(TransformRun run, BoundOutput output) {
    return "output " + output.parameter().requirePath() + " (" + output.resolved().sparkIdentifier()
        + ") of transform " + run.spec().name();
  }
}
