package dev.transforms.singlenode.internal.parquet;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import org.apache.iceberg.shaded.org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.iceberg.shaded.org.apache.parquet.bytes.BytesInput;
import org.apache.iceberg.shaded.org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.column.Dictionary;
import org.apache.iceberg.shaded.org.apache.parquet.column.Encoding;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.DictionaryPage;
import org.apache.iceberg.shaded.org.apache.parquet.column.statistics.Statistics;
import org.apache.iceberg.shaded.org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.iceberg.shaded.org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.iceberg.shaded.org.apache.parquet.format.DataPageHeader;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageHeader;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageType;
import org.apache.iceberg.shaded.org.apache.parquet.format.Util;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.iceberg.shaded.org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.iceberg.shaded.org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.iceberg.shaded.org.apache.parquet.io.api.Binary;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType;

/** One column chunk of one row group, copied page by page into the writer. */
final class ChunkCopy {
  private final FileChannel file;
  private final ColumnChunkMetaData chunk;
  private final ColumnDescriptor descriptor;
  private final ColumnIndex index;
  private final OffsetIndex offsets;
  private final long firstRow;
  private final long rows;
  private final long[] dropped;
  private final int zstdLevel;
  private final PrimitiveType type;
  private Dictionary dictionary;
  private DictionaryPage rawDictionary;

  ChunkCopy(FileChannel file, ColumnChunkMetaData chunk, ColumnDescriptor descriptor, ColumnIndex index,
      OffsetIndex offsets, long firstRow, long rows, long[] dropped, int zstdLevel) {
    this.file = file;
    this.chunk = chunk;
    this.descriptor = descriptor;
    this.index = index;
    this.offsets = offsets;
    this.firstRow = firstRow;
    this.rows = rows;
    this.dropped = dropped;
    this.zstdLevel = zstdLevel;
    this.type = descriptor.getPrimitiveType();
  }

  void copyInto(ParquetFileWriter writer, long kept) throws IOException {
    writer.startColumn(descriptor, kept, chunk.getCodec());
    if (chunk.hasDictionaryPage()) {
      long start = chunk.getDictionaryPageOffset();
      long end = offsets.getOffset(0);
      ByteBuffer bytes = read(start, (int) (end - start));
      ByteBufferInputStream in = ByteBufferInputStream.wrap(bytes);
      PageHeader header = Util.readPageHeader(in);
      if (header.getType() != PageType.DICTIONARY_PAGE) {
        throw new IOException("No dictionary page at " + start + " of column " + descriptor);
      }
      ByteBuffer compressed = in.slice(header.getCompressed_page_size());
      rawDictionary = new DictionaryPage(BytesInput.from(compressed), header.getUncompressed_page_size(),
          header.getDictionary_page_header().getNum_values(),
          Encoding.valueOf(header.getDictionary_page_header().getEncoding().name()));
      writer.writeDictionaryPage(rawDictionary);
    }
    for (int p = 0; p < offsets.getPageCount(); p++) {
      long from = firstRow + offsets.getFirstRowIndex(p);
      long to = firstRow + offsets.getLastRowIndex(p, rows);
      ByteBuffer bytes = read(offsets.getOffset(p), offsets.getCompressedPageSize(p));
      ByteBufferInputStream in = ByteBufferInputStream.wrap(bytes);
      PageHeader header = Util.readPageHeader(in);
      if (header.getType() != PageType.DATA_PAGE) {
        throw new IOException("Page " + p + " of column " + descriptor + " is a " + header.getType()
            + ", not a data page of format version 1");
      }
      DataPageHeader data = header.getData_page_header();
      ByteBuffer compressed = in.slice(header.getCompressed_page_size());
      int values = data.getNum_values();
      if (values != to - from + 1) {
        throw new IOException("Page " + p + " of column " + descriptor + " holds " + values
            + " values for " + (to - from + 1) + " rows");
      }
      Encoding valuesEncoding = Encoding.valueOf(data.getEncoding().name());
      Encoding dlEncoding = Encoding.valueOf(data.getDefinition_level_encoding().name());
      Encoding rlEncoding = Encoding.valueOf(data.getRepetition_level_encoding().name());
      if (index != null && PageCopyRewrite.countIn(dropped, from, to) == 0) {
        writer.writeDataPage(values, header.getUncompressed_page_size(), BytesInput.from(compressed),
            indexed(p), values, rlEncoding, dlEncoding, valuesEncoding);
      } else {
        reencode(writer, compressed, header.getUncompressed_page_size(), values, from, valuesEncoding,
            rlEncoding, dlEncoding);
      }
    }
    writer.endColumn();
  }

  /** The statistics of a copied page, from the column index. */
  private Statistics<?> indexed(int page) {
    Statistics.Builder builder = Statistics.getBuilderForReading(type).withNumNulls(index.getNullCounts().get(page));
    if (!index.getNullPages().get(page)) {
      builder.withMin(bytes(index.getMinValues().get(page))).withMax(bytes(index.getMaxValues().get(page)));
    }
    return builder.build();
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }

  private ByteBuffer read(long position, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      int read = file.read(buffer, position + buffer.position());
      if (read < 0) {
        throw new IOException("Unexpected end of file reading column " + descriptor);
      }
    }
    buffer.flip();
    return buffer;
  }

  /** Decodes a page, leaves out the dropped rows and writes the rest as a new page. */
  private void reencode(ParquetFileWriter writer, ByteBuffer compressed, int uncompressedSize, int values,
      long from, Encoding valuesEncoding, Encoding rlEncoding, Encoding dlEncoding) throws IOException {
    ByteBuffer page = decompress(compressed, uncompressedSize).order(ByteOrder.LITTLE_ENDIAN);
    int maxDefinition = descriptor.getMaxDefinitionLevel();
    boolean[] defined = new boolean[values];
    if (maxDefinition == 0) {
      Arrays.fill(defined, true);
    } else {
      int length = page.getInt();
      ByteBuffer levels = page.slice();
      levels.limit(length);
      RunLengthBitPackingHybridDecoder decoder = new RunLengthBitPackingHybridDecoder(1,
          ByteBufferInputStream.wrap(levels));
      for (int i = 0; i < values; i++) {
        defined[i] = decoder.readInt() == maxDefinition;
      }
      page.position(page.position() + length);
    }
    boolean[] keep = new boolean[values];
    int keptCount = 0;
    int next = PageCopyRewrite.firstAtOrAfter(dropped, from); // the positions have no duplicates (see rewrite)
    for (int i = 0; i < values; i++) {
      keep[i] = next >= dropped.length || dropped[next] != from + i;
      if (keep[i]) {
        keptCount++;
      } else {
        next++;
      }
    }
    if (keptCount == 0) {
      return;
    }
    Statistics<?> stats = Statistics.createStats(type);
    ByteArrayOutputStream out = new ByteArrayOutputStream(page.capacity());
    if (maxDefinition > 0) {
      try (RunLengthBitPackingHybridEncoder levels = new RunLengthBitPackingHybridEncoder(1, 64, 1 << 20,
          HeapByteBufferAllocator.getInstance())) {
        for (int i = 0; i < values; i++) {
          if (keep[i]) {
            levels.writeInt(defined[i] ? maxDefinition : 0);
          }
        }
        byte[] encoded = levels.toBytes().toByteArray();
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(encoded.length).array());
        out.write(encoded);
      }
    }
    ByteBuffer body = page.slice().order(ByteOrder.LITTLE_ENDIAN);
    if (valuesEncoding == Encoding.PLAIN_DICTIONARY || valuesEncoding == Encoding.RLE_DICTIONARY) {
      copyDictionaryIds(body, values, defined, keep, out, stats);
    } else if (valuesEncoding == Encoding.PLAIN) {
      copyPlain(body, values, defined, keep, out, stats);
    } else {
      throw new IOException("Cannot re-encode values in " + valuesEncoding + " of column " + descriptor);
    }
    for (int i = 0; i < values; i++) {
      if (keep[i] && !defined[i]) {
        stats.incrementNumNulls();
      }
    }
    byte[] plain = out.toByteArray();
    byte[] packed = compress(plain);
    writer.writeDataPage(keptCount, plain.length, BytesInput.from(packed), stats, keptCount, rlEncoding,
        dlEncoding, valuesEncoding);
  }

  private void copyDictionaryIds(ByteBuffer body, int values, boolean[] defined, boolean[] keep,
      ByteArrayOutputStream out, Statistics<?> stats) throws IOException {
    int bitWidth = body.get() & 0xff;
    RunLengthBitPackingHybridDecoder ids = new RunLengthBitPackingHybridDecoder(bitWidth,
        ByteBufferInputStream.wrap(body.slice()));
    Dictionary values0 = dictionary();
    out.write(bitWidth);
    try (RunLengthBitPackingHybridEncoder encoder = new RunLengthBitPackingHybridEncoder(bitWidth, 64, 1 << 20,
        HeapByteBufferAllocator.getInstance())) {
      for (int i = 0; i < values; i++) {
        if (!defined[i]) {
          continue;
        }
        int id = ids.readInt();
        if (keep[i]) {
          encoder.writeInt(id);
          update(stats, values0, id);
        }
      }
      out.write(encoder.toBytes().toByteArray());
    }
  }

  private void copyPlain(ByteBuffer body, int values, boolean[] defined, boolean[] keep,
      ByteArrayOutputStream out, Statistics<?> stats) throws IOException {
    PrimitiveType.PrimitiveTypeName physical = type.getPrimitiveTypeName();
    if (physical == PrimitiveType.PrimitiveTypeName.BOOLEAN) {
      int bit = 0;
      int written = 0;
      int current = 0;
      for (int i = 0; i < values; i++) {
        if (!defined[i]) {
          continue;
        }
        boolean value = (body.get(bit >>> 3) & (1 << (bit & 7))) != 0;
        bit++;
        if (keep[i]) {
          if (value) {
            current |= 1 << (written & 7);
          }
          written++;
          if ((written & 7) == 0) {
            out.write(current);
            current = 0;
          }
          ((org.apache.iceberg.shaded.org.apache.parquet.column.statistics.BooleanStatistics) stats)
              .updateStats(value);
        }
      }
      if ((written & 7) != 0) {
        out.write(current);
      }
      return;
    }
    int width = switch (physical) {
      case INT32, FLOAT -> 4;
      case INT64, DOUBLE -> 8;
      case INT96 -> 12;
      case FIXED_LEN_BYTE_ARRAY -> type.getTypeLength();
      default -> -1; // BINARY: a length before each value
    };
    int at = 0;
    for (int i = 0; i < values; i++) {
      if (!defined[i]) {
        continue;
      }
      int start = at;
      int length = width >= 0 ? width : 4 + body.getInt(at);
      at += length;
      if (keep[i]) {
        byte[] value = new byte[length];
        body.get(start, value);
        out.write(value);
        updatePlain(stats, physical, value, width);
      }
    }
  }

  private static void updatePlain(Statistics<?> stats, PrimitiveType.PrimitiveTypeName physical, byte[] value,
      int width) {
    ByteBuffer v = ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN);
    switch (physical) {
      case INT32 -> ((org.apache.iceberg.shaded.org.apache.parquet.column.statistics.IntStatistics) stats)
          .updateStats(v.getInt(0));
      case INT64 -> ((org.apache.iceberg.shaded.org.apache.parquet.column.statistics.LongStatistics) stats)
          .updateStats(v.getLong(0));
      case FLOAT -> ((org.apache.iceberg.shaded.org.apache.parquet.column.statistics.FloatStatistics) stats)
          .updateStats(v.getFloat(0));
      case DOUBLE -> ((org.apache.iceberg.shaded.org.apache.parquet.column.statistics.DoubleStatistics) stats)
          .updateStats(v.getDouble(0));
      default -> stats.updateStats(width >= 0 ? Binary.fromConstantByteArray(value)
          : Binary.fromConstantByteArray(value, 4, value.length - 4));
    }
  }

  private static void update(Statistics<?> stats, Dictionary dictionary, int id) {
    switch (stats.type().getPrimitiveTypeName()) {
      case INT32 -> ((org.apache.iceberg.shaded.org.apache.parquet.column.statistics.IntStatistics) stats)
          .updateStats(dictionary.decodeToInt(id));
      case INT64 -> ((org.apache.iceberg.shaded.org.apache.parquet.column.statistics.LongStatistics) stats)
          .updateStats(dictionary.decodeToLong(id));
      case FLOAT -> ((org.apache.iceberg.shaded.org.apache.parquet.column.statistics.FloatStatistics) stats)
          .updateStats(dictionary.decodeToFloat(id));
      case DOUBLE -> ((org.apache.iceberg.shaded.org.apache.parquet.column.statistics.DoubleStatistics) stats)
          .updateStats(dictionary.decodeToDouble(id));
      default -> stats.updateStats(dictionary.decodeToBinary(id));
    }
  }

  /** The chunk's dictionary, decoded when a page that uses it is first re-encoded. */
  private Dictionary dictionary() throws IOException {
    if (dictionary == null) {
      if (rawDictionary == null) {
        throw new IOException("Column " + descriptor + " has dictionary-encoded pages and no dictionary");
      }
      int size = rawDictionary.getUncompressedSize();
      ByteBuffer plain = decompress(rawDictionary.getBytes().toByteBuffer(), size);
      DictionaryPage decoded = new DictionaryPage(BytesInput.from(plain), size,
          rawDictionary.getDictionarySize(), rawDictionary.getEncoding());
      dictionary = decoded.getEncoding().initDictionary(descriptor, decoded);
    }
    return dictionary;
  }

  private ByteBuffer decompress(ByteBuffer compressed, int uncompressedSize) throws IOException {
    if (chunk.getCodec() == CompressionCodecName.UNCOMPRESSED) {
      return compressed.duplicate();
    }
    byte[] source = bytes(compressed);
    byte[] plain = new byte[uncompressedSize];
    long size = Zstd.decompressByteArray(plain, 0, plain.length, source, 0, source.length);
    if (Zstd.isError(size) || size != uncompressedSize) {
      throw new IOException("Cannot decompress a zstd page of column " + descriptor + ": "
          + (Zstd.isError(size) ? Zstd.getErrorName(size) : size + " bytes, " + uncompressedSize + " expected"));
    }
    return ByteBuffer.wrap(plain);
  }

  private byte[] compress(byte[] plain) {
    return chunk.getCodec() == CompressionCodecName.UNCOMPRESSED ? plain : Zstd.compress(plain, zstdLevel);
  }
}
