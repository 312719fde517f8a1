package dev.transforms.singlenode.internal.plan;

import java.nio.file.Path;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;

/**
 * One native rewrite strategy: it tells, without opening the file, whether it rewrites it, and writes
 * the kept rows into a new file. Implemented once per strategy, in the package of what it is; only
 * {@link RewritePlanner} calls them.
 */
public interface FileRewrite {

  /**
   * One local Parquet data file to rewrite.
   *
   * @param table the table it belongs to
   * @param schema the columns written, in order (the table's)
   * @param source the file
   * @param spec its partition spec, the new file's
   * @param partition its partition, the new file's
   */
  record Request(Table table, Schema schema, Path source, PartitionSpec spec, StructLike partition) {}

  /**
   * The strategy this is.
   *
   * @return its entry in the table
   */
  RewriteStrategy strategy();

  /**
   * Why this strategy does not rewrite the file, or empty when it does.
   *
   * @param request the file
   * @return the reason, or empty
   */
  Optional<String> declines(Request request);

  /**
   * Writes the file's rows except those at {@code leftOut} into {@code target}.
   *
   * @param request the file
   * @param leftOut the positions to leave out, sorted
   * @param target the new file's location, as the table names it
   * @param out the new file on the local file system
   * @return the new data file; empty when the file turns out to hold what this strategy does not
   *     rewrite (what it wrote is the caller's to delete)
   * @throws RuntimeException naming the file when the rewrite fails
   */
  Optional<DataFile> rewrite(Request request, long[] leftOut, String target, Path out);
}
