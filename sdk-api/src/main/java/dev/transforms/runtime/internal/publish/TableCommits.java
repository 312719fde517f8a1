package dev.transforms.runtime.internal.publish;

import dev.transforms.runtime.spi.CommitRetry;
import java.util.function.Consumer;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.exceptions.CommitFailedException;

/**
 * Commits a transaction of the publish protocol, retrying from fresh metadata when another writer
 * committed first.
 *
 * <p>Iceberg retries a transaction by replaying its updates, but a branch update
 * ({@code manageSnapshots()}) keeps the metadata it was made from and cannot be replayed: a concurrent
 * commit (another build staging the same output, a lease renewal) fails it for good. So each attempt
 * here builds the whole transaction again on the table as it is now, which also runs its checks
 * (fast-forward ancestry, "main did not move") against the new state.
 */
final class TableCommits {

  static final int ATTEMPTS = 20;

  private TableCommits() {}

  /**
   * Builds and commits a transaction, again from the table's latest metadata after each conflict.
   *
   * @param table the table
   * @param body adds the transaction's updates; may throw to give up (its checks failed)
   * @throws CommitFailedException if every attempt met a concurrent commit
   */
  static void commit(Table table, Consumer<Transaction> body) {
    CommitRetry.onConflict(ATTEMPTS).run(() -> {
      table.refresh();
      Transaction transaction = table.newTransaction();
      body.accept(transaction);
      transaction.commitTransaction();
    });
  }
}
