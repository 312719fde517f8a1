package dev.transforms.singlenode.internal.parquet;

import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.DataPage;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.DictionaryPage;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.PageReader;

/**
 * Decompresses the pages of one column chunk on a background thread, a few pages ahead of the
 * reader. Row edits read the join key of every row on the calling thread and the other columns
 * only where a key matches; their pages are decompressed meanwhile on the other core.
 *
 * <p>Only for pages whose decompressor is safe to use from two threads at once (zstd, which
 * {@link ParquetCodecs} decompresses without state, and uncompressed pages): Parquet's other
 * decompressors are shared by every column of a file and keep state. Pages that come still compressed
 * ({@link ColumnPages}) are decompressed here; the pages handed on are always decompressed.
 */
final class PageReadAhead implements PageReader, AutoCloseable {
  /** Pages decompressed ahead of the reader, at most, unless the reader asks for another bound. */
  static final int PAGES_AHEAD = 4;

  private static final Object END = new Object();

  private final PageReader pages;
  private final boolean deferred;
  private final String where;
  private final DictionaryPage dictionary;
  private final BlockingQueue<Object> ahead;
  private final Future<?> task;
  private boolean ended = false;

  /**
   * @param pagesAhead the most pages decompressed ahead of the reader
   * @param deferred whether the pages come still compressed ({@link ColumnPages})
   * @param where the column and file, for messages
   */
  PageReadAhead(PageReader pages, int pagesAhead, boolean deferred, String where) {
    this.pages = pages;
    this.deferred = deferred;
    this.where = where;
    this.ahead = new ArrayBlockingQueue<>(pagesAhead);
    DictionaryPage page = pages.readDictionaryPage(); // read before any data page, as Parquet requires
    this.dictionary = deferred && page != null ? ColumnPages.decompressed(page, where) : page;
    this.task = BackgroundThreads.run(this::readAll);
  }

  private void readAll() {
    try {
      DataPage page;
      while ((page = pages.readPage()) != null) {
        ahead.put(deferred ? ColumnPages.decompressed(page, where) : page);
      }
      ahead.put(END);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closed: the reader wants no more pages
    } catch (RuntimeException | Error e) {
      try {
        ahead.put(e);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public DictionaryPage readDictionaryPage() {
    return dictionary;
  }

  @Override
  public long getTotalValueCount() {
    return pages.getTotalValueCount();
  }

  @Override
  public DataPage readPage() {
    if (ended) {
      return null;
    }
    Object next;
    try {
      next = ahead.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for a Parquet page", e);
    }
    if (next == END) {
      ended = true;
      return null;
    } else if (next instanceof RuntimeException) {
      throw (RuntimeException) next;
    } else if (next instanceof Error) {
      throw (Error) next;
    }
    return (DataPage) next;
  }

  /** Stops reading ahead; pages not yet taken are dropped. */
  @Override
  public void close() {
    task.cancel(true);
  }
}
