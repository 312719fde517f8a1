package dev.transforms.singlenode.internal.parquet;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.EnumSet;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * The codecs a page copy reads and writes pages in, one page at a time, array to array: zstd, snappy,
 * gzip and none, the codecs Parquet writers use (pyarrow and Spark write zstd or snappy, Iceberg's Java
 * writer zstd or, in a table without a codec property, gzip). A page that is re-encoded is compressed
 * again in its chunk's codec, so a copied file keeps the codec of the file it copies.
 */
final class PageCodecs {

  /** The codecs pages are read and written in. */
  static final Set<CompressionCodecName> CODECS = EnumSet.of(CompressionCodecName.ZSTD,
      CompressionCodecName.SNAPPY, CompressionCodecName.GZIP, CompressionCodecName.UNCOMPRESSED);

  private PageCodecs() {}

  /**
   * A page's bytes, decompressed.
   *
   * @param codec the chunk's codec, one of {@link #CODECS}
   * @param compressed the page's body as stored
   * @param size the page's size decompressed, from its header
   * @param what the column, for messages
   * @throws IOException if the bytes are not a page of that codec and size
   */
  static byte[] decompress(CompressionCodecName codec, byte[] compressed, int size, Object what) throws IOException {
    byte[] plain;
    switch (codec) {
      case UNCOMPRESSED -> plain = compressed;
      case ZSTD -> {
        plain = new byte[size];
        long n = Zstd.decompressByteArray(plain, 0, plain.length, compressed, 0, compressed.length);
        if (Zstd.isError(n)) {
          throw new IOException("Cannot decompress a zstd page of column " + what + ": " + Zstd.getErrorName(n));
        }
        checkSize(codec, n, size, what);
      }
      case SNAPPY -> {
        plain = new byte[size];
        checkSize(codec, Snappy.uncompress(compressed, 0, compressed.length, plain, 0), size, what);
      }
      case GZIP -> {
        plain = new byte[size];
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(compressed), 8192)) {
          int n = in.readNBytes(plain, 0, size);
          checkSize(codec, in.read() < 0 ? n : size + 1, size, what);
        }
      }
      default -> throw new IOException("Pages of column " + what + " are in " + codec + ", which is not copied");
    }
    return plain;
  }

  /**
   * A page's bytes, compressed.
   *
   * @param codec the chunk's codec, one of {@link #CODECS}
   * @param plain the page's bytes
   * @param zstdLevel the level of zstd
   */
  static byte[] compress(CompressionCodecName codec, byte[] plain, int zstdLevel) throws IOException {
    return switch (codec) {
      case UNCOMPRESSED -> plain;
      case ZSTD -> Zstd.compress(plain, zstdLevel);
      case SNAPPY -> Snappy.compress(plain);
      case GZIP -> {
        ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length / 3 + 64);
        try (GZIPOutputStream gzip = new GZIPOutputStream(out, 8192)) {
          gzip.write(plain);
        }
        yield out.toByteArray();
      }
      default -> throw new IOException("Pages are not written in " + codec);
    };
  }

  private static void checkSize(CompressionCodecName codec, long got, int size, Object what) throws IOException {
    if (got != size) {
      throw new IOException("A " + codec + " page of column " + what + " holds " + got + " bytes decompressed, its "
          + "header says " + size);
    }
  }
}
