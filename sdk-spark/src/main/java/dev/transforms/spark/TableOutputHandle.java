package dev.transforms.spark;

import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.api.SchemaMismatchException;
import dev.transforms.runtime.internal.engine.BoundOutput;
import dev.transforms.runtime.internal.engine.TransformRun;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;

/** A {@code @TableOutput}. */
final class TableOutputHandle implements TableTransformOutput {
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
    return TableReads.literal(identifier());
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
