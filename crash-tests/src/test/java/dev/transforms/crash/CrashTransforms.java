package dev.transforms.crash;

import dev.transforms.api.Incremental;
import dev.transforms.api.Output;
import dev.transforms.api.ReadMode;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.spi.CrashPoints;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.spark.IncrementalTransformInput;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;
import dev.transforms.spark.TransformOutput;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The transforms the crash tests kill: each copies the input to its outputs in two writes (the even
 * ids, then the odd ones), with a crash point between them, so a kill there leaves half a result
 * staged. After any successful build, every output holds exactly the input's rows.
 */
public final class CrashTransforms {

  /** The input: {@code id bigint, v string}. */
  public static final String EVENTS = "/Crash/in/events";
  /** The Spark outputs. */
  public static final String SPARK_OUT = "/Crash/out/spark";
  /** The single-node outputs. */
  public static final String SINGLE_OUT = "/Crash/out/single";
  /** The two outputs of one transform. */
  public static final String FIRST_OF_TWO = "/Crash/out/first";
  /** The second of them. */
  public static final String SECOND_OF_TWO = "/Crash/out/second";
  /** A file output. */
  public static final String FILES_OUT = "/Crash/out/files";

  private CrashTransforms() {}

  private static void copyInTwoWrites(Dataset<Row> rows, TableTransformOutput out) {
    out.writeDataFrame(rows.filter("id % 2 = 0"));
    CrashPoints.reached("run.written");
    try {
      rows.filter("id % 2 = 1").writeTo(out.identifier()).append();
    } catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The column the reshaping transforms add: {@code w}, the upper-cased {@code v}. */
  public static final String ADDED_COLUMN = "w";

  /** A Spark full build whose rows gained a column since the output was built. */
  public static class SparkReshape {
    /**
     * Copies every row with one more column.
     *
     * @param in the input
     * @param out the output
     */
    @Transform(name = "spark-reshape")
    public void copy(@TableInput(EVENTS) TableTransformInput in, @TableOutput(SPARK_OUT) TableTransformOutput out) {
      copyInTwoWrites(in.dataframe().selectExpr("id", "v", "upper(v) AS " + ADDED_COLUMN), out);
    }
  }

  /** A single-node full build whose rows gained a column since the output was built. */
  public static class SingleReshape {
    /**
     * Copies every row with one more column.
     *
     * @param ctx the context
     * @param in the input
     * @param out the output
     */
    @Transform(name = "single-reshape")
    public void copy(SingleNodeTransformContext ctx, @TableInput(EVENTS) IcebergInput in,
        @TableOutput(SINGLE_OUT) IcebergOutput out) {
      try (VectorSchemaRoot widened = withUpperCase(in.arrow(), ADDED_COLUMN, ctx.allocator())) {
        copyInTwoWrites(widened, out, ctx.allocator());
      }
    }
  }

  /** The rows of {@code id, v} with a third column holding {@code v} upper-cased. */
  static VectorSchemaRoot withUpperCase(VectorSchemaRoot rows, String column, BufferAllocator allocator) {
    BigIntVector ids = (BigIntVector) rows.getVector("id");
    VarCharVector values = (VarCharVector) rows.getVector("v");
    BigIntVector outIds = new BigIntVector("id", allocator);
    VarCharVector outValues = new VarCharVector("v", allocator);
    VarCharVector upper = new VarCharVector(column, allocator);
    for (int i = 0; i < rows.getRowCount(); i++) {
      outIds.setSafe(i, ids.get(i));
      if (values.isNull(i)) {
        outValues.setNull(i);
        upper.setNull(i);
      } else {
        outValues.setSafe(i, values.get(i));
        upper.setSafe(i, new String(values.get(i), java.nio.charset.StandardCharsets.UTF_8)
            .toUpperCase(java.util.Locale.ROOT).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    VectorSchemaRoot out = VectorSchemaRoot.of(outIds, outValues, upper);
    out.setRowCount(rows.getRowCount());
    return out;
  }

  /** An incremental Spark copy: appends the added rows. */
  public static class SparkIncremental {
    /**
     * Copies the added rows.
     *
     * @param in the input
     * @param out the output
     */
    @Transform(name = "spark-incremental")
    @Incremental
    public void copy(@TableInput(EVENTS) IncrementalTransformInput in, @TableOutput(SPARK_OUT) TableTransformOutput out) {
      copyInTwoWrites(in.dataframe(), out);
    }
  }

  /** A Spark copy that rebuilds in full every time. */
  public static class SparkFull {
    /**
     * Copies every row.
     *
     * @param in the input
     * @param out the output
     */
    @Transform(name = "spark-full")
    public void copy(@TableInput(EVENTS) TableTransformInput in, @TableOutput(SPARK_OUT) TableTransformOutput out) {
      copyInTwoWrites(in.dataframe(), out);
    }
  }

  /** A Spark transform writing plain files. */
  public static class SparkFiles {
    /**
     * Writes the input as Parquet files.
     *
     * @param in the input
     * @param out the file output
     */
    @Transform(name = "spark-files")
    public void copy(@TableInput(EVENTS) TableTransformInput in, @Output(FILES_OUT) TransformOutput out) {
      out.writeDataFrame(in.dataframe());
    }
  }

  /** The rows of {@code rows} whose id has the given parity, as a new batch with the same columns. */
  static VectorSchemaRoot withParity(VectorSchemaRoot rows, int parity, BufferAllocator allocator) {
    BigIntVector ids = (BigIntVector) rows.getVector("id");
    VectorSchemaRoot out = VectorSchemaRoot.create(rows.getSchema(), allocator);
    int n = 0;
    for (int i = 0; i < rows.getRowCount(); i++) {
      if (Math.floorMod(ids.get(i), 2) == parity) {
        for (int c = 0; c < rows.getFieldVectors().size(); c++) {
          out.getVector(c).copyFromSafe(i, n, rows.getVector(c));
        }
        n++;
      }
    }
    out.setRowCount(n);
    return out;
  }

  private static void copyInTwoWrites(VectorSchemaRoot rows, IcebergOutput out, BufferAllocator allocator) {
    try (VectorSchemaRoot evens = withParity(rows, 0, allocator); VectorSchemaRoot odds = withParity(rows, 1, allocator)) {
      out.writeTable(evens);
      CrashPoints.reached("run.written");
      RowEdits.on(out.table().orElseThrow()).append(odds);
    }
  }

  /** An incremental single-node copy. */
  public static class SingleIncremental {
    /**
     * Copies the added rows.
     *
     * @param ctx the context
     * @param in the input
     * @param out the output
     */
    @Transform(name = "single-incremental")
    @Incremental
    public void copy(SingleNodeTransformContext ctx, @TableInput(EVENTS) IcebergInput in,
        @TableOutput(SINGLE_OUT) IcebergOutput out) {
      copyInTwoWrites(in.arrow(ReadMode.ADDED), out, ctx.allocator());
    }
  }

  /** A single-node copy that rebuilds in full every time. */
  public static class SingleFull {
    /**
     * Copies every row.
     *
     * @param ctx the context
     * @param in the input
     * @param out the output
     */
    @Transform(name = "single-full")
    public void copy(SingleNodeTransformContext ctx, @TableInput(EVENTS) IcebergInput in,
        @TableOutput(SINGLE_OUT) IcebergOutput out) {
      copyInTwoWrites(in.arrow(), out, ctx.allocator());
    }
  }

  /** A single-node copy to two outputs. */
  public static class TwoOutputs {
    /**
     * Copies every row to both outputs.
     *
     * @param ctx the context
     * @param in the input
     * @param first one output
     * @param second the other
     */
    @Transform(name = "two-outputs")
    public void copy(SingleNodeTransformContext ctx, @TableInput(EVENTS) IcebergInput in,
        @TableOutput(FIRST_OF_TWO) IcebergOutput first, @TableOutput(SECOND_OF_TWO) IcebergOutput second) {
      copyInTwoWrites(in.arrow(), first, ctx.allocator());
      copyInTwoWrites(in.arrow(), second, ctx.allocator());
    }
  }

  /** A single-node copy to two outputs whose rows gained a column since they were built. */
  public static class TwoOutputsReshape {
    /**
     * Copies every row with one more column to both outputs.
     *
     * @param ctx the context
     * @param in the input
     * @param first one output
     * @param second the other
     */
    @Transform(name = "two-outputs")
    public void copy(SingleNodeTransformContext ctx, @TableInput(EVENTS) IcebergInput in,
        @TableOutput(FIRST_OF_TWO) IcebergOutput first, @TableOutput(SECOND_OF_TWO) IcebergOutput second) {
      try (VectorSchemaRoot widened = withUpperCase(in.arrow(), ADDED_COLUMN, ctx.allocator())) {
        copyInTwoWrites(widened, first, ctx.allocator());
        copyInTwoWrites(widened, second, ctx.allocator());
      }
    }
  }

  /** A single-node copy that throws after writing. */
  public static class SingleFailing {
    /**
     * Writes every row, then throws.
     *
     * @param ctx the context
     * @param in the input
     * @param out the output
     */
    @Transform(name = "single-full")
    public void copy(SingleNodeTransformContext ctx, @TableInput(EVENTS) IcebergInput in,
        @TableOutput(SINGLE_OUT) IcebergOutput out) {
      copyInTwoWrites(in.arrow(), out, ctx.allocator());
      throw new IllegalStateException("the transform failed after writing");
    }
  }
  /** The output of the first transform of {@link SingleChain}, the input of the second. */
  public static final String CHAIN_FIRST = "/Crash/out/chain-first";
  /** The output of the second transform of {@link SingleChain}. */
  public static final String CHAIN_SECOND = "/Crash/out/chain-second";

  /** Two single-node copies in a chain: the input to {@link #CHAIN_FIRST}, that to {@link #CHAIN_SECOND}. */
  public static class SingleChain {
    /**
     * Copies every input row.
     *
     * @param ctx the context
     * @param in the input
     * @param out the first output
     */
    @Transform(name = "chain-first")
    public void first(SingleNodeTransformContext ctx, @TableInput(EVENTS) IcebergInput in,
        @TableOutput(CHAIN_FIRST) IcebergOutput out) {
      copyInTwoWrites(in.arrow(), out, ctx.allocator());
    }

    /**
     * Copies every row of the first output.
     *
     * @param ctx the context
     * @param in the first output
     * @param out the second output
     */
    @Transform(name = "chain-second")
    public void second(SingleNodeTransformContext ctx, @TableInput(CHAIN_FIRST) IcebergInput in,
        @TableOutput(CHAIN_SECOND) IcebergOutput out) {
      copyInTwoWrites(in.arrow(), out, ctx.allocator());
    }
  }

  /** The outputs of {@link FourAtOnce}: {@code /Crash/out/four-0} to {@code four-3}. */
  public static String fourOut(int k) {
    return "/Crash/out/four-" + k;
  }

  /**
   * Where the four transforms of {@link FourAtOnce} meet in the killed child (started with
   * {@code -Dcrash.threads}), so that all four are running before any writes.
   */
  static final java.util.concurrent.CyclicBarrier FOUR = new java.util.concurrent.CyclicBarrier(4);

  /** Four independent single-node copies that a build with four threads runs at once. */
  public static class FourAtOnce {
    private static void copy(SingleNodeTransformContext ctx, IcebergInput in, IcebergOutput out) {
      // Only in the killed child, which runs the four at once; the test's own builds do not wait.
      if (System.getProperty(CrashChild.THREADS) != null) {
        try {
          FOUR.await(120, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
          throw new IllegalStateException("the four transforms did not all start", e);
        }
      }
      copyInTwoWrites(in.arrow(), out, ctx.allocator());
    }

    /**
     * Copies every row.
     *
     * @param ctx the context
     * @param in the input
     * @param out an output
     */
    @Transform(name = "four-0")
    public void zero(SingleNodeTransformContext ctx, @TableInput(EVENTS) IcebergInput in,
        @TableOutput("/Crash/out/four-0") IcebergOutput out) {
      copy(ctx, in, out);
    }

    /**
     * Copies every row.
     *
     * @param ctx the context
     * @param in the input
     * @param out an output
     */
    @Transform(name = "four-1")
    public void one(SingleNodeTransformContext ctx, @TableInput(EVENTS) IcebergInput in,
        @TableOutput("/Crash/out/four-1") IcebergOutput out) {
      copy(ctx, in, out);
    }

    /**
     * Copies every row.
     *
     * @param ctx the context
     * @param in the input
     * @param out an output
     */
    @Transform(name = "four-2")
    public void two(SingleNodeTransformContext ctx, @TableInput(EVENTS) IcebergInput in,
        @TableOutput("/Crash/out/four-2") IcebergOutput out) {
      copy(ctx, in, out);
    }

    /**
     * Copies every row.
     *
     * @param ctx the context
     * @param in the input
     * @param out an output
     */
    @Transform(name = "four-3")
    public void three(SingleNodeTransformContext ctx, @TableInput(EVENTS) IcebergInput in,
        @TableOutput("/Crash/out/four-3") IcebergOutput out) {
      copy(ctx, in, out);
    }
  }
}
