package dev.transforms.singlenode.internal.read;

import dev.transforms.singlenode.internal.parquet.PagedColumnsRead;
import dev.transforms.singlenode.internal.plan.ArrowRead;
import dev.transforms.singlenode.internal.plan.DirectScan;
import dev.transforms.singlenode.internal.plan.NativeReader;
import dev.transforms.singlenode.internal.plan.ReadStrategy;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Table;

/**
 * The {@link ReadStrategy#PAGE_DECODER page decoder} as a read strategy: the files' columns are decoded in
 * units of pages ({@link PagedColumnsRead}), then the position deletes and deletion vectors that apply to
 * them keep only the live rows ({@link LiveRuns}). It reads nothing while turned off ({@code
 * -Dtransforms.arrow-page-decoder=false}); it declines while reading, nothing left allocated, when a column
 * turns out to be one it does not read as the engine does.
 */
public final class PageDecoderRead implements NativeReader {

  /** The page decoder; it holds no state. */
  public static final PageDecoderRead INSTANCE = new PageDecoderRead();

  private PageDecoderRead() {}

  @Override
  public ReadStrategy strategy() {
    return ReadStrategy.PAGE_DECODER;
  }

  @Override
  public Optional<String> declines() {
    return PagedColumnsRead.enabled() ? Optional.empty()
        : Optional.of("turned off (-D" + PagedColumnsRead.SWITCH + "=false)");
  }

  @Override
  public Optional<ArrowRead> read(Table table, DirectScan scan) {
    if (scan.deleted().isEmpty()) {
      return Optional.of(new Decoded(scan, null));
    }
    LiveRuns live = LiveRuns.of(table, scan.schema(), scan.fileRows(), scan.deleted());
    return live == null ? Optional.empty() : Optional.of(new Decoded(scan, live));
  }

  /** A read of a scan's files, its deletes applied after decoding when {@code live} is not null. */
  private record Decoded(DirectScan scan, LiveRuns live) implements ArrowRead {

    @Override
    public ReadStrategy strategy() {
      return ReadStrategy.PAGE_DECODER;
    }

    @Override
    public String detail() {
      return live == null ? "" : ", deletes applied after decoding (" + live + ")";
    }

    @Override
    public Optional<VectorSchemaRoot> read(BufferAllocator allocator) {
      return PagedColumnsRead.read(scan, allocator).map(root -> live == null ? root : live.keep(root));
    }
  }
}
