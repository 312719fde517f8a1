package dev.transforms.clustertest;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.examples.SparkRowEdits;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A single-node transform that records where it ran: the process id and main class of its JVM, and
 * how many rows it read from a table that Spark executors wrote. The cluster check compares the process
 * id with spark-submit's: single-node transforms run in the driver, against the same object storage.
 */
public class DriverProbe {

  /** The output: one row describing the process the transform ran in. */
  public static final String OUTPUT = "/Cluster/probe/driver";

  /**
   * Writes one row: {@code pid}, {@code main_class}, {@code input_rows}.
   *
   * @param ctx the context, for Arrow memory
   * @param edited a table the Spark row-edits example wrote on the executors
   * @param output the probe's row
   */
  @Transform(description = "the process a single-node transform runs in (cluster test)")
  public void probeDriver(SingleNodeTransformContext ctx,
      @TableInput(SparkRowEdits.EDITED) IcebergInput edited,
      @TableOutput(OUTPUT) IcebergOutput output) {
    int inputRows = edited.arrow().getRowCount();
    String command = System.getProperty("sun.java.command", "");
    String mainClass = command.isEmpty() ? "" : command.split(" ", 2)[0];
    Schema schema = new Schema(List.of(
        new Field("pid", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("main_class", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
        new Field("input_rows", FieldType.notNullable(new ArrowType.Int(64, true)), null)));
    try (VectorSchemaRoot row = VectorSchemaRoot.create(schema, ctx.allocator())) {
      ((BigIntVector) row.getVector("pid")).setSafe(0, ProcessHandle.current().pid());
      ((VarCharVector) row.getVector("main_class")).setSafe(0, mainClass.getBytes(StandardCharsets.UTF_8));
      ((BigIntVector) row.getVector("input_rows")).setSafe(0, inputRows);
      row.setRowCount(1);
      output.writeTable(row);
    }
  }
}
