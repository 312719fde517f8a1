package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.iceberg.shaded.org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.iceberg.shaded.org.apache.parquet.bytes.BytesInput;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.DataPage;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.DataPageV1;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.DataPageV2;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.DictionaryPage;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.PageReader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The data pages of one column chunk, in order, for {@link ParquetColumnValues}: a page the reader
 * moves past whole is {@link #skip skipped} on its row count alone, and when the chunk's pages come
 * still compressed (a zstd chunk read with {@link ParquetCodecs#deferringZstd()}), it is never
 * decompressed. A row edit that reads one column at a few rows of a large file, say a string column
 * needed only for the rows whose cheaper columns did not settle them, then decompresses the pages
 * holding those rows instead of the whole chunk.
 *
 * <p>Pages are read for flat columns, whose page holds as many values (levels) as rows.
 */
final class ColumnPages {
  /** Bytes before a deferred page's compressed bytes: a marker, then the decompressed size. */
  static final int DEFERRED_HEADER = 8;

  private static final int DEFERRED_MARKER = 0x7a737464; // "zstd"

  private final PageReader pages;
  private final boolean deferred;
  private final String where;
  private DataPage next; // read, not yet taken or skipped

  /**
   * @param deferred whether they come still compressed, behind {@link #deferredHeader}
   * @param where the column and file, for messages
   */
  ColumnPages(PageReader pages, boolean deferred, String where) {
    this.pages = pages;
    this.deferred = deferred;
    this.where = where;
  }

  /** The chunk's dictionary page, decompressed, or null when it has none. */
  DictionaryPage dictionary() {
    DictionaryPage page = pages.readDictionaryPage();
    return deferred && page != null ? decompressed(page, where) : page;
  }

  /** Rows of the next page, which is read but not decompressed; -1 when there are no more pages. */
  int nextRows() {
    if (next == null) {
      next = pages.readPage();
    }
    return next == null ? -1 : next.getValueCount();
  }

  /** Passes over the next page without decompressing or decoding it. */
  void skip() {
    if (nextRows() >= 0) {
      next = null;
    }
  }

  /** The next page, decompressed; null when there are no more pages. */
  DataPage take() {
    DataPage page = next != null ? next : pages.readPage();
    next = null;
    return deferred && page != null ? decompressed(page, where) : page;
  }

  /** The header {@link ParquetCodecs#deferringZstd()} puts before a page's compressed bytes. */
  static ByteBuffer deferredHeader(int uncompressedSize) {
    return ByteBuffer.allocate(DEFERRED_HEADER).putInt(DEFERRED_MARKER).putInt(uncompressedSize).flip();
  }

  /** A page of a deferred chunk, decompressed. */
  static DataPage decompressed(DataPage page, String where) {
    if (page instanceof DataPageV1 v1) {
      return new DataPageV1(inflate(v1.getBytes(), where), v1.getValueCount(),
          v1.getUncompressedSize(), v1.getStatistics(), v1.getRlEncoding(), v1.getDlEncoding(),
          v1.getValueEncoding());
    }
    DataPageV2 v2 = (DataPageV2) page;
    return DataPageV2.uncompressed(v2.getRowCount(), v2.getNullCount(), v2.getValueCount(),
        v2.getRepetitionLevels(), v2.getDefinitionLevels(), v2.getDataEncoding(),
        inflate(v2.getData(), where), v2.getStatistics());
  }

  /** A dictionary page of a deferred chunk, decompressed. */
  static DictionaryPage decompressed(DictionaryPage page, String where) {
    return new DictionaryPage(inflate(page.getBytes(), where), page.getDictionarySize(),
        page.getEncoding());
  }

  /** Decompresses a deferred page's bytes through {@link ParquetCodecs}' zstd pages. */
  private static BytesInput inflate(BytesInput deferredBytes, String where) {
    try {
      ByteBufferInputStream in = deferredBytes.toInputStream();
      ByteBuffer header = in.slice(DEFERRED_HEADER);
      if (header.getInt(header.position()) != DEFERRED_MARKER) {
        throw new IllegalStateException("A page of " + where + " was expected still compressed with zstd"
            + " behind its size, and is not");
      }
      int size = header.getInt(header.position() + 4);
      ByteBuffer compressed = in.slice((int) in.available());
      return ParquetRowCursor.OPTIONS.getCodecFactory().getDecompressor(CompressionCodecName.ZSTD)
          .decompress(BytesInput.from(compressed), size);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to decompress a page of " + where, e);
    }
  }
}
