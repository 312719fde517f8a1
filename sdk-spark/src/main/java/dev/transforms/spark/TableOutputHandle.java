package dev.transforms.spark;

import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.api.SchemaMismatchException;
import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.OutputShapes;
import dev.transforms.runtime.spi.TransformRun;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Schema;
import org.apache.iceberg.spark.SparkSchemaUtil;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;
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
      TableWrites.create(dataframe.writeTo(identifier()));
      return;
    }
    Dataset<Row> rows = dataframe;
    StructType table = session.table(identifier()).schema();
    List<String> differences = SchemaCheck.differences(dataframe.schema(), table, false);
    if (!differences.isEmpty()) {
      // A full build takes the DataFrame's columns; an incremental one changes as the output's policy allows.
      OutputShapes.fit(run, output, icebergSchema(dataframe.schema(), differences), Optional.empty());
      table = session.table(identifier()).schema();
      rows = withMissingColumns(dataframe, table);
      differences = SchemaCheck.differences(rows.schema(), table, false);
    }
    if (!differences.isEmpty()) {
      throw new SchemaMismatchException("Cannot write to output " + output.parameter().requirePath() + " ("
          + identifier() + ") of transform " + run.spec().name() + ": the DataFrame does not fit the table. "
          + "Columns that differ:\n  - " + String.join("\n  - ", differences)
          + "\nSelect and cast the DataFrame's columns to the table's schema; nothing was written.", differences);
    }
    try {
      if (run.isIncremental()) {
        rows.writeTo(identifier()).append();
      } else {
        // Static mode: a full build replaces every row, not only the partitions the data touches.
        rows.writeTo(identifier()).option("overwrite-mode", "static").overwrite(functions.lit(true));
      }
    } catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException e) {
      throw new DatasetNotFoundException("Output " + output.parameter().requirePath() + " (" + identifier()
          + ") disappeared while transform " + run.spec().name() + " ran", e);
    }
  }

  /** The DataFrame's columns as Iceberg columns; a column of no type ({@code lit(null)}) cannot become one. */
  private Schema icebergSchema(StructType columns, List<String> differences) {
    try {
      return SparkSchemaUtil.convert(columns);
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      throw new SchemaMismatchException("Cannot write to output " + output.parameter().requirePath() + " ("
          + identifier() + ") of transform " + run.spec().name() + ": the DataFrame does not fit the table, and its "
          + "columns cannot become table columns (" + e.getMessage() + "); cast each column to a type. Columns that "
          + "differ:\n  - " + String.join("\n  - ", differences), differences);
    }
  }

  /** The rows with the table's columns they lack (optional ones, kept by the policy) as nulls. */
  private static Dataset<Row> withMissingColumns(Dataset<Row> rows, StructType table) {
    Dataset<Row> filled = rows;
    for (StructField column : table.fields()) {
      boolean present = java.util.Arrays.stream(rows.schema().fieldNames()).anyMatch(column.name()::equalsIgnoreCase);
      if (!present && column.nullable()) {
        filled = filled.withColumn(column.name(), functions.lit(null).cast(column.dataType()));
      }
    }
    return filled;
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
