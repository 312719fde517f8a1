package dev.transforms.singlenode.edits;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.iceberg.shaded.org.apache.parquet.ParquetReadOptions;
import org.apache.iceberg.shaded.org.apache.parquet.bytes.BytesInput;
import org.apache.iceberg.shaded.org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Parquet's codecs, except that zstd pages (Iceberg's default compression) are decompressed in one
 * call from array to array instead of through Parquet's zstd input stream, which copies each page
 * several times and dominated the time of reading a key column.
 */
final class ParquetCodecs implements CompressionCodecFactory {
  private final CompressionCodecFactory parquet = ParquetReadOptions.builder().build().getCodecFactory();
  private final BytesInputDecompressor zstd = new ZstdPages(parquet.getDecompressor(CompressionCodecName.ZSTD));

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    return parquet.getCompressor(codec);
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    return codec == CompressionCodecName.ZSTD ? zstd : parquet.getDecompressor(codec);
  }

  @Override
  public void release() {
    parquet.release();
  }

  /** Decompresses a zstd page in one call; falls back to Parquet's stream for anything unusual. */
  private static final class ZstdPages implements BytesInputDecompressor {
    private final BytesInputDecompressor stream;

    private ZstdPages(BytesInputDecompressor stream) {
      this.stream = stream;
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
      long written =
          Zstd.decompressByteArray(
              target, 0, uncompressedSize, sourceBytes, sourceOffset, source.remaining());
      if (Zstd.isError(written) || written != uncompressedSize) {
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
      stream.release();
    }
  }
}
