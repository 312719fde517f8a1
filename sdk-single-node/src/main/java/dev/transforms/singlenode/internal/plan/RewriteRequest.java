package dev.transforms.singlenode.internal.plan;

import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;

/**
 * One data file a copy-on-write rewrites, as the {@link RewritePlanner} and the {@link FileRewrite rewrite
 * strategies} see it: what they decide on, before any file is opened.
 *
 * @param table the table the file belongs to
 * @param schema the columns written, in order (the table's, with lineage columns when rows carry them)
 * @param task the file's scan task, whole, with its deletes
 * @param rowLineage whether rows carry lineage columns (or the table writes another format than Parquet)
 * @param probes whether the change finds its dropped rows by fewer columns than all (a probe)
 */
public record RewriteRequest(Table table, Schema schema, FileScanTask task, boolean rowLineage, boolean probes) {

  /**
   * The file: its location and size, wherever the table's {@code FileIO} keeps it.
   *
   * @return the file to rewrite
   */
  public DirectScan.ScanFile source() {
    return DirectScan.ScanFile.of(task.file().location(), task.file().fileSizeInBytes());
  }

  /**
   * The file's partition spec, the new file's.
   *
   * @return the spec
   */
  public PartitionSpec spec() {
    return task.spec();
  }

  /**
   * The file's partition, the new file's.
   *
   * @return the partition
   */
  public StructLike partition() {
    return task.file().partition();
  }

  /**
   * The rows the file holds, deleted ones included.
   *
   * @return the file's row count
   */
  public long rows() {
    return task.file().recordCount();
  }
}
