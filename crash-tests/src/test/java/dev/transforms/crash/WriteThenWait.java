package dev.transforms.crash;

import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.util.ThreadPools;

/**
 * A single-node transform that writes its output (a snapshot on the build's staging branch), then, when
 * {@value #WRITTEN} names a file, writes that file and waits until the JVM is shutting down, so that a
 * test can stop the process with SIGTERM between the write and the publication.
 */
public final class WriteThenWait {

  /** The system property naming the file written once the rows are on the staging branch. */
  public static final String WRITTEN = "wait.written";

  /** The output. */
  public static final String OUTPUT = "/Wait/out/numbers";

  /** How many rows it writes. */
  public static final int ROWS = 1_000;

  /**
   * Writes {@value #ROWS} numbers, then waits for the JVM's shutdown when asked to.
   *
   * @param ctx the context
   * @param out the output
   */
  @Transform(name = "write-then-wait")
  public void write(SingleNodeTransformContext ctx, @TableOutput(OUTPUT) IcebergOutput out) {
    try (BigIntVector n = new BigIntVector("n", ctx.allocator()); VectorSchemaRoot rows = VectorSchemaRoot.of(n)) {
      for (int i = 0; i < ROWS; i++) {
        n.setSafe(i, i);
      }
      rows.setRowCount(ROWS);
      out.writeTable(rows);
    }
    String written = System.getProperty(WRITTEN);
    if (written == null) {
      return;
    }
    try {
      Files.writeString(Path.of(written), "written");
      // Iceberg's worker pool is shut down by a shutdown hook of its own: once it is, the JVM is stopping.
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (!ThreadPools.getWorkerPool().isShutdown() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      Thread.sleep(1_000); // every hook has started; the build's has cancelled the build
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
