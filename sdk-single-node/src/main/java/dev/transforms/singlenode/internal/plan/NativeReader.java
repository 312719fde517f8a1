package dev.transforms.singlenode.internal.plan;

import java.util.Optional;
import org.apache.iceberg.Table;

/**
 * A native reader as the {@link ReadPlanner} asks it: whether it reads now, and a read ({@link ArrowRead})
 * of the files of a scan. The operation offers it, so that this package names none of the reader's
 * packages (the page decoder lives in {@code internal.parquet}, its deletes in {@code internal.read}).
 */
public interface NativeReader {

  /**
   * Which strategy this reader is.
   *
   * @return the strategy
   */
  ReadStrategy strategy();

  /**
   * Why this reader reads nothing now, whatever the files; empty when it may read.
   *
   * @return the reason, such as {@code "turned off (-Dtransforms.arrow-page-decoder=false)"}
   */
  Optional<String> declines();

  /**
   * A read of a scan's files, with the position deletes and deletion vectors of its deleted files
   * ({@link DirectScan#deleted()}) applied after decoding; loads those deletes.
   *
   * @param table the table, for its schema history and its deletes
   * @param scan the files and columns
   * @return the read; empty when deletes apply and the files hold more rows than one root
   */
  Optional<ArrowRead> read(Table table, DirectScan scan);
}
