package dev.transforms.singlenode.arrow;

import dev.transforms.singlenode.internal.plan.RootWrite;
import dev.transforms.singlenode.internal.plan.WriteStrategy;
import java.util.Optional;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.data.InternalRecordWrapper;

/**
 * The {@link WriteStrategy#ENGINE engine's writer, row by row}: each row of the root becomes a record (one
 * reused record) that Iceberg's writer writes into the file of its partition. Takes every root.
 */
final class RowByRowWrite implements RootWrite<RowsToWrite> {

  /** The row-by-row write; it holds no state. */
  static final RowByRowWrite INSTANCE = new RowByRowWrite();

  private RowByRowWrite() {}

  @Override
  public WriteStrategy strategy() {
    return WriteStrategy.ENGINE;
  }

  @Override
  public Optional<String> declines(RowsToWrite work) {
    return Optional.empty();
  }

  @Override
  public long write(RowsToWrite work) {
    WriteTarget target = work.target();
    IcebergFileWriter writer = target.writer();
    PartitionKey partitionKey = target.partitionKey();
    InternalRecordWrapper wrapper = target.wrapper();
    int rowCount = work.root().getRowCount();
    target.writeRows(work.byName(), 0, rowCount, record -> {
      if (partitionKey != null) {
        partitionKey.partition(wrapper.wrap(record));
      }
      writer.write(record, partitionKey);
    });
    return rowCount;
  }
}
