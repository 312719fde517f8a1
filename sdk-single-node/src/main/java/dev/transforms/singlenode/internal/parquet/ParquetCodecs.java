package dev.transforms.singlenode.internal.parquet;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import org.apache.iceberg.shaded.org.apache.parquet.ParquetReadOptions;
import org.apache.iceberg.shaded.org.apache.parquet.bytes.BytesInput;
import org.apache.iceberg.shaded.org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Parquet's codecs, except that zstd pages (Iceberg's default compression) are decompressed in one
 * call from array to array instead of through Parquet's zstd input stream, which copies each page
 * several times and dominated the time of reading a key column.
 *
 * <p>One instance serves every reader in the JVM, from any thread (building Parquet's read options
 * costs milliseconds, too much per file). The zstd path takes a decompression context from a small
 * pool for each page; Parquet's own decompressors keep state, and one is shared per codec, so each
 * is used by one thread at a time.
 *
 * <p>{@link #deferringZstd()} makes the codecs of readers whose pages {@link ColumnPages} takes: their
 * zstd pages stay compressed until decoded.
 */
final class ParquetCodecs implements CompressionCodecFactory {
  private final CompressionCodecFactory parquet = ParquetReadOptions.builder().build().getCodecFactory();
  private final java.util.Map<CompressionCodecName, BytesInputDecompressor> decompressors =
      new java.util.EnumMap<>(CompressionCodecName.class);
  private final boolean deferZstd;

  /** Codecs that decompress every page as Parquet reads it. */
  ParquetCodecs() {
    this(false);
  }

  private ParquetCodecs(boolean deferZstd) {
    this.deferZstd = deferZstd;
  }

  /**
   * Codecs for readers whose pages go through {@link ColumnPages}: a zstd page is handed on still
   * compressed, behind a header that gives its decompressed size ({@link ColumnPages#decompressed}
   * reads it), so that a page the reader moves past whole is never decompressed. Pages of other codecs
   * are decompressed as Parquet reads them.
   */
  static ParquetCodecs deferringZstd() {
    return new ParquetCodecs(true);
  }

  /** Whether a reader with these codecs gets the pages of a chunk of this codec still compressed. */
  boolean defers(CompressionCodecName codec) {
    return deferZstd && codec == CompressionCodecName.ZSTD;
  }

  @Override
  public synchronized BytesInputCompressor getCompressor(CompressionCodecName codec) {
    throw new UnsupportedOperationException("Parquet files are only read here");
  }

  @Override
  public synchronized BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    return decompressors.computeIfAbsent(
        codec,
        name -> {
          BytesInputDecompressor shared = new OneThreadAtATime(parquet.getDecompressor(name));
          if (name != CompressionCodecName.ZSTD) {
            return shared;
          }
          return defers(name) ? new DeferredZstd(shared) : new ZstdPages(shared);
        });
  }

  @Override
  public void release() {
    // shared for the life of the JVM
  }

  /** Parquet's decompressor for a codec, used by one thread at a time. */
  private static final class OneThreadAtATime implements BytesInputDecompressor {
    private final BytesInputDecompressor decompressor;

    private OneThreadAtATime(BytesInputDecompressor decompressor) {
      this.decompressor = decompressor;
    }

    @Override
    public synchronized BytesInput decompress(BytesInput compressed, int uncompressedSize)
        throws IOException {
      // Parquet's result may still read from the decompressor's stream: copy it out while the
      // decompressor is ours, before another page resets it
      return BytesInput.copy(decompressor.decompress(compressed, uncompressedSize));
    }

    @Override
    public synchronized void decompress(
        ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
        throws IOException {
      decompressor.decompress(input, compressedSize, output, uncompressedSize);
    }

    @Override
    public void release() {
      // shared
    }
  }

  /** Decompresses a zstd page in one call; falls back to Parquet's stream for anything unusual. */
  static final class ZstdPages implements BytesInputDecompressor {
    /**
     * Decompression contexts not in use, a few kept for the life of the JVM: zstd's one-call
     * decompression makes and frees a native context per page otherwise, which showed in profiles
     * of the row edits' probe (reusing them made a merge-on-read upsert of 10k rows into 1M about 3
     * ms faster, 68.0 to 64.8 ms). A context serves one page at a time; one that finds the pool full
     * is closed (contexts have no finalizer, so none is left to a thread that ends).
     */
    private static final ArrayBlockingQueue<ZstdDecompressCtx> IDLE =
        new ArrayBlockingQueue<>(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));

    private final BytesInputDecompressor stream;

    private ZstdPages(BytesInputDecompressor stream) {
      this.stream = stream;
    }

    /**
     * Decompresses a zstd page into the start of {@code target}, which has room for it; false when zstd
     * rejects the page (the caller then goes through Parquet's codec, which says what is wrong).
     */
    static boolean decompressInto(byte[] source, int offset, int length, byte[] target, int size) {
      ZstdDecompressCtx context = IDLE.poll();
      if (context == null) {
        context = new ZstdDecompressCtx();
      }
      try {
        return context.decompressByteArray(target, 0, size, source, offset, length) == size;
      } catch (ZstdException e) {
        return false;
      } finally {
        if (!IDLE.offer(context)) {
          context.close();
        }
      }
    }

    @Override
    public BytesInput decompress(BytesInput compressed, int uncompressedSize) throws IOException {
      ByteBuffer source = compressed.toByteBuffer();
      byte[] sourceBytes;
      int sourceOffset;
      if (source.hasArray()) {
        sourceBytes = source.array();
        sourceOffset = source.arrayOffset() + source.position();
      } else {
        sourceBytes = new byte[source.remaining()];
        source.duplicate().get(sourceBytes);
        sourceOffset = 0;
      }
      byte[] target = new byte[uncompressedSize];
      boolean written = decompressInto(sourceBytes, sourceOffset, source.remaining(), target, uncompressedSize);
      if (!written) { // Parquet's stream reports what is wrong with the page
        return stream.decompress(BytesInput.from(source), uncompressedSize);
      }
      return BytesInput.from(target);
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
        throws IOException {
      stream.decompress(input, compressedSize, output, uncompressedSize);
    }

    @Override
    public void release() {
      // shared
    }
  }

  /**
   * Leaves a zstd page compressed: answers its bytes behind a header of {@link ColumnPages#DEFERRED_HEADER}
   * bytes (a marker and the decompressed size, which Parquet does not keep for a version 2 page once it
   * has been through a decompressor). The bytes are not copied.
   */
  private static final class DeferredZstd implements BytesInputDecompressor {
    private final BytesInputDecompressor stream;

    private DeferredZstd(BytesInputDecompressor stream) {
      this.stream = stream;
    }

    @Override
    public BytesInput decompress(BytesInput compressed, int uncompressedSize) throws IOException {
      return BytesInput.from(ColumnPages.deferredHeader(uncompressedSize), compressed.toByteBuffer());
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
        throws IOException {
      stream.decompress(input, compressedSize, output, uncompressedSize); // direct buffers: not deferred
    }

    @Override
    public void release() {
      // shared
    }
  }
}
