package dev.transforms.singlenode.internal.parquet;

import dev.transforms.singlenode.internal.plan.FileRewrite;
import dev.transforms.singlenode.internal.plan.RewriteRequest;
import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.io.OutputFile;

/**
 * The {@link RewriteStrategy#PAGE_COPY page copy} as a rewrite strategy: the file minus the positions found
 * first is written by {@link PageCopyRewrite}, which copies the pages that hold no dropped row. It declines
 * (before opening the file) when turned off or the table's zstd level is not a number, and (while working)
 * when the dropped rows cannot be found first, when the file holds what it does not copy, or when it fails;
 * then nothing it wrote is left and the next strategy rewrites the file.
 */
public final class PageCopyStrategy implements FileRewrite<PageCopyStrategy.Work> {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PageCopyStrategy.class);

  /** The page copy; it holds no state. */
  public static final PageCopyStrategy INSTANCE = new PageCopyStrategy();

  private PageCopyStrategy() {}

  /** What the page copy needs of the operation that rewrites a file. */
  public interface Work {

    /**
     * The file.
     *
     * @return the request the plan was made for
     */
    RewriteRequest request();

    /**
     * The rows the change drops, found first (a probe); found once, whichever strategy asks first.
     *
     * @return how many; -1 when they cannot be found first (the engine's cursor cannot read the file)
     */
    long droppedRows();

    /**
     * The positions to leave out, sorted: the rows dropped and the rows deleted before. Asked only after
     * {@link #droppedRows()} found some.
     *
     * @return the positions
     */
    long[] leftOut();

    /**
     * Names and claims the location of a new data file of the table, as its writers name them.
     *
     * @return the location
     */
    String claimNewFile();

    /**
     * Keeps the file written at a claimed location, or releases the location when nothing was written.
     *
     * @param location the location claimed
     * @param written the file written there; empty when nothing was
     */
    void written(String location, Optional<DataFile> written);

    /**
     * The file's bytes as a reader of its rows fetched them (a file that is not local), left open; empty
     * to read the file anew.
     *
     * @return the bytes
     */
    Optional<FileBytes> fetchedBytes();
  }

  @Override
  public RewriteStrategy strategy() {
    return RewriteStrategy.PAGE_COPY;
  }

  @Override
  public Optional<String> declines(RewriteRequest request) {
    return PageCopyRewrite.declines(request);
  }

  @Override
  public Optional<Rewritten> rewrite(Work work) {
    long dropped = work.droppedRows();
    if (dropped < 0) {
      return Optional.empty();
    } else if (dropped == 0) {
      return Optional.of(Rewritten.NOTHING);
    }
    long[] leftOut = work.leftOut();
    RewriteRequest request = work.request();
    if (leftOut.length >= request.rows()) {
      return Optional.of(new Rewritten(dropped, false)); // no row is kept: the file goes, no empty file replaces it
    }
    String location = work.claimNewFile();
    Optional<DataFile> written = write(request, leftOut, location, work.fetchedBytes());
    work.written(location, written);
    return written.map(file -> new Rewritten(dropped, true));
  }

  /** The page copy into a new file; empty, nothing left at the target, when it gave up or failed. */
  private static Optional<DataFile> write(RewriteRequest request, long[] leftOut, String target,
      Optional<FileBytes> source) {
    Optional<Path> local = FileBytes.localPath(target);
    if (local.isPresent()) {
      try {
        Files.createDirectories(local.get().getParent()); // a table's data folder may not exist yet
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create the folder of " + target, e);
      }
    }
    try {
      OutputFile out = request.table().io().newOutputFile(target);
      Optional<DataFile> written = source.isPresent()
          ? PageCopyRewrite.rewrite(request, leftOut, out, source.get())
          : PageCopyRewrite.rewrite(request, leftOut, out);
      if (written.isPresent()) {
        return written;
      }
    } catch (RuntimeException e) {
      LOG.warn("The {} rewrite of {} of table {} failed; rewriting it another way", RewriteStrategy.PAGE_COPY.label(),
          request.source(), request.table().name(), e);
    }
    try {
      request.table().io().deleteFile(target);
    } catch (RuntimeException e) {
      LOG.debug("Cannot remove {}; the operation removes it with its other files", target, e);
    }
    return Optional.empty();
  }
}
