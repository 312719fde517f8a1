package dev.transforms.crash;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Transforms that race: each waits inside its method until the other process is there too (a barrier
 * of files in the folder named by {@value #BARRIER}), then writes, so two builds meet where the
 * protocol must tell them apart.
 */
public final class RaceTransforms {

  /** The system property naming the barrier folder. */
  public static final String BARRIER = "race.barrier";
  /** The output of the racing copies. */
  public static final String RACED = "/Race/out/copy";
  /** Outputs of two different transforms in one new namespace. */
  public static final String LEFT = "/Race/fresh/left";
  /** The other one. */
  public static final String RIGHT = "/Race/fresh/right";

  private RaceTransforms() {}

  /** Waits until two processes reached the barrier (or a minute passed). */
  static void meet() {
    String folder = System.getProperty(BARRIER);
    if (folder == null) {
      return;
    }
    Path barrier = Path.of(folder);
    try {
      Files.createDirectories(barrier);
      Files.writeString(barrier.resolve(Long.toString(ProcessHandle.current().pid())), "here");
      long deadline = System.currentTimeMillis() + 60_000;
      while (System.currentTimeMillis() < deadline) {
        try (Stream<Path> arrived = Files.list(barrier)) {
          if (arrived.count() >= 2) {
            return;
          }
        }
        Thread.sleep(20);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A single-node copy that meets the other racer first. */
  public static class SingleRacer {
    /**
     * Copies every row.
     *
     * @param in the input
     * @param out the output
     */
    @Transform(name = "race")
    public void copy(@TableInput(CrashTransforms.EVENTS) IcebergInput in, @TableOutput(RACED) IcebergOutput out) {
      meet();
      out.writeTable(in.arrow());
    }
  }

  /** A single-node full build that meets the other racer, then writes one more column, named after its process. */
  public static class ShapeRacer {
    /**
     * Copies every row with a column of its own.
     *
     * @param ctx the context
     * @param in the input
     * @param out the output
     */
    @Transform(name = "race")
    public void copy(dev.transforms.singlenode.SingleNodeTransformContext ctx,
        @TableInput(CrashTransforms.EVENTS) IcebergInput in, @TableOutput(RACED) IcebergOutput out) {
      meet();
      try (org.apache.arrow.vector.VectorSchemaRoot rows = CrashTransforms.withUpperCase(in.arrow(),
          "c" + ProcessHandle.current().pid(), ctx.allocator())) {
        out.writeTable(rows);
      }
    }
  }

  /** A Spark copy that meets the other racer first. */
  public static class SparkRacer {
    /**
     * Copies every row.
     *
     * @param in the input
     * @param out the output
     */
    @Transform(name = "race")
    public void copy(@TableInput(CrashTransforms.EVENTS) TableTransformInput in,
        @TableOutput(RACED) TableTransformOutput out) {
      meet();
      out.writeDataFrame(in.dataframe());
    }
  }

  /** One of two different transforms writing to one new namespace. */
  public static class Left {
    /**
     * Copies every row.
     *
     * @param in the input
     * @param out the output
     */
    @Transform(name = "left")
    public void copy(@TableInput(CrashTransforms.EVENTS) IcebergInput in, @TableOutput(LEFT) IcebergOutput out) {
      out.writeTable(in.arrow());
    }
  }

  /** The other one. */
  public static class Right {
    /**
     * Copies every row.
     *
     * @param in the input
     * @param out the output
     */
    @Transform(name = "right")
    public void copy(@TableInput(CrashTransforms.EVENTS) IcebergInput in, @TableOutput(RIGHT) IcebergOutput out) {
      out.writeTable(in.arrow());
    }
  }
}
