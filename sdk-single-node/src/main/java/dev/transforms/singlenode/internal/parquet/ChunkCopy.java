package dev.transforms.singlenode.internal.parquet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.function.DoubleConsumer;
import org.apache.iceberg.shaded.org.apache.parquet.bytes.BytesInput;
import org.apache.iceberg.shaded.org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.column.Dictionary;
import org.apache.iceberg.shaded.org.apache.parquet.column.Encoding;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.DictionaryPage;
import org.apache.iceberg.shaded.org.apache.parquet.column.statistics.Statistics;
import org.apache.iceberg.shaded.org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.iceberg.shaded.org.apache.parquet.format.DataPageHeader;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageHeader;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageType;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.iceberg.shaded.org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.iceberg.shaded.org.apache.parquet.io.api.Binary;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One column chunk of one row group, copied page by page into the writer: a data page that holds no
 * dropped row is copied as its compressed bytes are; one that holds one is decoded, filtered and
 * re-encoded in its own encoding, against the chunk's dictionary. A copied page's statistics come from
 * the chunk's column index where it has exact ones, or from the page's header (pyarrow writes exact ones
 * there); otherwise (DuckDB writes neither; and a float column, whose NaNs Iceberg's metrics count) the
 * page's values are decoded for them, and the page is still copied as it is.
 */
final class ChunkCopy {
  private final FileBytes file;
  private final ColumnDescriptor descriptor;
  private final PrimitiveType type;
  private final CompressionCodecName codec;
  private final List<PageHeaders.Page> pages;
  private final ColumnIndex index; // exact statistics of every data page, or null
  private final long firstRow; // the row group's first row in the file
  private final long[] dropped;
  private final int zstdLevel;
  private final DoubleConsumer floats; // every kept float or double value, for Iceberg's metrics; or null
  private DictionaryPage rawDictionary;
  private Dictionary dictionary;

  ChunkCopy(FileBytes file, ColumnDescriptor descriptor, CompressionCodecName codec, List<PageHeaders.Page> pages,
      ColumnIndex index, long firstRow, long[] dropped, int zstdLevel, DoubleConsumer floats) {
    this.file = file;
    this.descriptor = descriptor;
    this.type = descriptor.getPrimitiveType();
    this.codec = codec;
    this.pages = pages;
    this.index = index;
    this.firstRow = firstRow;
    this.dropped = dropped;
    this.zstdLevel = zstdLevel;
    this.floats = floats;
  }

  void copyInto(ParquetFileWriter writer, long kept) throws IOException {
    writer.startColumn(descriptor, kept, codec);
    int dataPage = 0;
    for (PageHeaders.Page page : pages) {
      PageHeader header = page.header();
      byte[] body = read(page.offset() + page.headerLength(), header.getCompressed_page_size());
      if (header.getType() == PageType.DICTIONARY_PAGE) {
        var dictionaryHeader = header.getDictionary_page_header();
        rawDictionary = new DictionaryPage(BytesInput.from(body), header.getUncompressed_page_size(),
            dictionaryHeader.getNum_values(), Encoding.valueOf(dictionaryHeader.getEncoding().name()));
        writer.writeDictionaryPage(rawDictionary);
      } else if (header.getType() == PageType.DATA_PAGE) {
        copyDataPage(writer, header, body, firstRow + page.firstRow(), dataPage++);
      }
    }
    writer.endColumn();
  }

  private void copyDataPage(ParquetFileWriter writer, PageHeader header, byte[] body, long from, int ordinal)
      throws IOException {
    DataPageHeader data = header.getData_page_header();
    int values = data.getNum_values();
    Encoding encoding = Encoding.valueOf(data.getEncoding().name());
    Encoding definitionEncoding = Encoding.valueOf(data.getDefinition_level_encoding().name());
    Encoding repetitionEncoding = Encoding.valueOf(data.getRepetition_level_encoding().name());
    long droppedHere = PageCopyRewrite.countIn(dropped, from, from + values - 1);
    if (droppedHere == values) {
      // Every row of the page goes (a delete of a key range drops whole pages): nothing to decompress.
      return;
    }
    boolean touched = droppedHere > 0;
    Statistics<?> known = touched || floats != null ? null : index != null ? indexed(ordinal) : exact(data);
    if (known != null) {
      writer.writeDataPage(values, header.getUncompressed_page_size(), BytesInput.from(body), known, values,
          repetitionEncoding, definitionEncoding, encoding);
      return;
    }
    byte[] page = decompress(body, header.getUncompressed_page_size());
    byte[] defined = null; // per row 1 for a value, 0 for a null; null when the column is required
    int at = 0;
    int present = values;
    if (descriptor.getMaxDefinitionLevel() > 0) {
      int length = (int) ArrowColumnPages.INT.get(page, 0);
      defined = new byte[values + 8];
      present = Hybrid.flags(ByteBuffer.wrap(page), 4, 4 + length, values, defined, 0);
      at = 4 + length;
    }
    boolean[] keep = null; // null when every row is kept
    int keptRows = values;
    if (touched) {
      keep = new boolean[values];
      int next = PageCopyRewrite.firstAtOrAfter(dropped, from); // the positions have no duplicates
      for (int i = 0; i < values; i++) {
        keep[i] = next >= dropped.length || dropped[next] != from + i;
        next += keep[i] ? 0 : 1;
        keptRows -= keep[i] ? 0 : 1;
      }
      if (keptRows == 0) {
        return;
      }
    }
    Statistics<?> stats = Statistics.createStats(type);
    ByteArrayOutputStream out = touched ? new ByteArrayOutputStream(page.length) : null;
    if (out != null && defined != null) {
      try (RunLengthBitPackingHybridEncoder levels = new RunLengthBitPackingHybridEncoder(1, 64, 1 << 20,
          HeapByteBufferAllocator.getInstance())) {
        for (int i = 0; i < values; i++) {
          if (keep[i]) {
            levels.writeInt(defined[i]);
          }
        }
        byte[] encoded = levels.toBytes().toByteArray();
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(encoded.length).array());
        out.write(encoded);
      }
    }
    if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY) {
      dictionaryIds(page, at, values, present, defined, keep, stats, out);
    } else if (encoding == Encoding.PLAIN) {
      plainValues(page, at, values, defined, keep, stats, out);
    } else {
      throw new IOException("Cannot copy values in " + encoding + " of column " + descriptor);
    }
    for (int i = 0; defined != null && i < values; i++) {
      if (defined[i] == 0 && (keep == null || keep[i])) {
        stats.incrementNumNulls();
      }
    }
    if (out == null) {
      writer.writeDataPage(values, header.getUncompressed_page_size(), BytesInput.from(body), stats, values,
          repetitionEncoding, definitionEncoding, encoding);
    } else {
      byte[] plain = out.toByteArray();
      writer.writeDataPage(keptRows, plain.length, BytesInput.from(compress(plain)), stats, keptRows,
          repetitionEncoding, definitionEncoding, encoding);
    }
  }

  /** The statistics of a copied page, from the column index. */
  private Statistics<?> indexed(int page) {
    Statistics.Builder builder = Statistics.getBuilderForReading(type).withNumNulls(index.getNullCounts().get(page));
    if (!index.getNullPages().get(page)) {
      builder.withMin(bytes(index.getMinValues().get(page))).withMax(bytes(index.getMaxValues().get(page)));
    }
    return builder.build();
  }

  /** The statistics a page's header holds, when exact and complete (pyarrow writes them); or null. */
  private Statistics<?> exact(DataPageHeader data) {
    var stats = data.getStatistics();
    if (stats == null || !stats.isSetNull_count()) {
      return null;
    } else if (stats.getNull_count() == data.getNum_values()) {
      return Statistics.getBuilderForReading(type).withNumNulls(stats.getNull_count()).build();
    } else if (!stats.isSetMin_value() || !stats.isSetMax_value()
        || (stats.isSetIs_min_value_exact() && !stats.isIs_min_value_exact())
        || (stats.isSetIs_max_value_exact() && !stats.isIs_max_value_exact())) {
      return null;
    }
    return Statistics.getBuilderForReading(type).withNumNulls(stats.getNull_count()).withMin(stats.getMin_value())
        .withMax(stats.getMax_value()).build();
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }

  private byte[] read(long position, int length) throws IOException {
    return file.read(position, length);
  }

  /**
   * The statistics of a page's kept dictionary ids, each distinct id looked up once; with {@code out},
   * the kept ids re-encoded at the page's bit width.
   */
  private void dictionaryIds(byte[] page, int at, int values, int present, byte[] defined, boolean[] keep,
      Statistics<?> stats, ByteArrayOutputStream out) throws IOException {
    int width = page[at] & 0xFF;
    int[] ids = new int[Math.max(1, present)];
    if (present > 0) {
      Hybrid.decode(page, at + 1, page.length, width, ids, present);
    }
    Dictionary values0 = dictionary();
    boolean[] used = new boolean[values0.getMaxId() + 1];
    RunLengthBitPackingHybridEncoder encoder = out == null ? null
        : new RunLengthBitPackingHybridEncoder(width, 64, 1 << 20, HeapByteBufferAllocator.getInstance());
    try {
      for (int i = 0, next = 0; i < values; i++) {
        if (defined != null && defined[i] == 0) {
          continue;
        }
        int id = ids[next++];
        if (id < 0 || id >= used.length) {
          throw new IOException("Dictionary id " + id + " out of range in column " + descriptor);
        } else if (keep == null || keep[i]) {
          used[id] = true;
          if (floats != null) {
            floats.accept(type.getPrimitiveTypeName() == PrimitiveTypeName.FLOAT ? values0.decodeToFloat(id)
                : values0.decodeToDouble(id));
          }
          if (encoder != null) {
            encoder.writeInt(id);
          }
        }
      }
      for (int id = 0; id < used.length; id++) {
        if (used[id]) {
          switch (type.getPrimitiveTypeName()) {
            case INT32 -> stats.updateStats(values0.decodeToInt(id));
            case INT64 -> stats.updateStats(values0.decodeToLong(id));
            case FLOAT -> stats.updateStats(values0.decodeToFloat(id));
            case DOUBLE -> stats.updateStats(values0.decodeToDouble(id));
            default -> stats.updateStats(values0.decodeToBinary(id));
          }
        }
      }
      if (encoder != null) {
        out.write(width);
        out.write(encoder.toBytes().toByteArray());
      }
    } finally {
      if (encoder != null) {
        encoder.close();
      }
    }
  }

  /** The statistics of a page's kept plain values; with {@code out}, the kept values as they are. */
  private void plainValues(byte[] page, int at, int values, byte[] defined, boolean[] keep, Statistics<?> stats,
      ByteArrayOutputStream out) throws IOException {
    PrimitiveTypeName physical = type.getPrimitiveTypeName();
    if (physical == PrimitiveTypeName.BOOLEAN) {
      int written = 0;
      int current = 0;
      for (int i = 0, bit = 0; i < values; i++) {
        if (defined != null && defined[i] == 0) {
          continue;
        }
        boolean value = (page[at + (bit >>> 3)] >>> (bit & 7) & 1) != 0;
        bit++;
        if (keep == null || keep[i]) {
          stats.updateStats(value);
          current |= (value ? 1 : 0) << (written & 7);
          if ((++written & 7) == 0 && out != null) {
            out.write(current);
            current = 0;
          }
        }
      }
      if (out != null && (written & 7) != 0) {
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
    for (int i = 0; i < values; i++) {
      if (defined != null && defined[i] == 0) {
        continue;
      }
      int start = at;
      int length = width >= 0 ? width : 4 + (int) ArrowColumnPages.INT.get(page, at);
      if (length < 0 || start + length > page.length) {
        throw new IOException("A value of column " + descriptor + " runs past its page");
      }
      at += length;
      if (keep == null || keep[i]) {
        switch (physical) {
          case INT32 -> stats.updateStats((int) ArrowColumnPages.INT.get(page, start));
          case INT64 -> stats.updateStats((long) ArrowColumnPages.LONG.get(page, start));
          case FLOAT -> {
            float value = Float.intBitsToFloat((int) ArrowColumnPages.INT.get(page, start));
            stats.updateStats(value);
            if (floats != null) {
              floats.accept(value);
            }
          }
          case DOUBLE -> {
            double value = Double.longBitsToDouble((long) ArrowColumnPages.LONG.get(page, start));
            stats.updateStats(value);
            if (floats != null) {
              floats.accept(value);
            }
          }
          default -> stats.updateStats(width >= 0 ? Binary.fromConstantByteArray(page, start, length)
              : Binary.fromConstantByteArray(page, start + 4, length - 4));
        }
        if (out != null) {
          out.write(page, start, length);
        }
      }
    }
  }

  /** The chunk's dictionary, decoded when a page that uses it is first decoded. */
  private Dictionary dictionary() throws IOException {
    if (dictionary == null) {
      if (rawDictionary == null) {
        throw new IOException("Column " + descriptor + " has dictionary-encoded pages and no dictionary");
      }
      int size = rawDictionary.getUncompressedSize();
      byte[] plain = decompress(rawDictionary.getBytes().toByteArray(), size);
      DictionaryPage decoded = new DictionaryPage(BytesInput.from(plain), size, rawDictionary.getDictionarySize(),
          rawDictionary.getEncoding());
      dictionary = decoded.getEncoding().initDictionary(descriptor, decoded);
    }
    return dictionary;
  }

  private byte[] decompress(byte[] compressed, int uncompressedSize) throws IOException {
    return PageCodecs.decompress(codec, compressed, uncompressedSize, descriptor);
  }

  private byte[] compress(byte[] plain) throws IOException {
    return PageCodecs.compress(codec, plain, zstdLevel);
  }
}
