package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.column.Encoding;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageHeader;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageType;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.iceberg.shaded.org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.iceberg.shaded.org.apache.parquet.schema.Type;
import org.apache.iceberg.types.Types;

/**
 * One column chunk as the page decoder reads it (a column of one row group of one file): where its
 * pages are, how its values become the Arrow vector's ({@link Kind}), and its dictionary, decoded once.
 */
final class ArrowChunk {
  final FileBytes file;
  final ColumnDescriptor descriptor;
  final Kind kind;
  final int stored; // the bytes of a stored fixed-width value
  final int width; // the bytes of the vector's value
  final CompressionCodecName codec;
  final long dictionaryOffset; // -1 without a dictionary page
  final long firstDataPage;
  final double expansion; // the chunk's uncompressed bytes per compressed byte
  Dictionary dictionary; // decoded when a unit first needs it

  ArrowChunk(FileBytes file, ColumnDescriptor descriptor, Kind kind, CompressionCodecName codec, long dictionaryOffset,
      long firstDataPage, double expansion) {
    this.expansion = expansion;
    this.file = file;
    this.descriptor = descriptor;
    this.kind = kind;
    int length = descriptor.getPrimitiveType().getTypeLength();
    this.stored = kind == Kind.FIXED_BYTES || kind == Kind.DECIMAL_FROM_BYTES ? length : kind.stored;
    this.width = kind == Kind.FIXED_BYTES ? length : kind.width;
    this.codec = codec;
    this.dictionaryOffset = dictionaryOffset;
    this.firstDataPage = firstDataPage;
  }

  synchronized Dictionary dictionary(ArrowColumnPages.Buffers buffers) throws IOException {
    if (dictionary == null) {
      byte[] bytes = file.read(dictionaryOffset, (int) (firstDataPage - dictionaryOffset));
      PageHeaders pages = new PageHeaders(bytes, 0, bytes.length);
      PageHeader header = pages.header();
      if (header.getType() != PageType.DICTIONARY_PAGE) {
        throw new ArrowColumnPages.Unsupported("no dictionary page at " + dictionaryOffset + " of " + file);
      }
      dictionary = Dictionary.of(header, pages.bytes, pages.body(header), this, buffers);
    }
    return dictionary;
  }

  /**
   * The chunk's dictionary, decoded from its page in bytes a unit read unless a unit decoded it already:
   * each chunk's dictionary is decoded once, however many units its pages are cut into.
   *
   * @param at where the dictionary page's body starts in {@code bytes}
   * @param buffers the thread's scratch arrays, into which the page is decompressed
   */
  synchronized Dictionary dictionary(PageHeader header, byte[] bytes, int at, ArrowColumnPages.Buffers buffers)
      throws IOException {
    if (dictionary == null) {
      dictionary = Dictionary.of(header, bytes, at, this, buffers);
    }
    return dictionary;
  }

  /** How a column's Parquet values become the Arrow vector's. */
  enum Kind {
    /** Strings and binary: values of their own lengths, and offsets. */
    VARIABLE(0, 0),
    /** Booleans: one bit each, staged as one byte per row. */
    BOOLEAN(0, 0),
    /** Four-byte values copied as they are: ints, dates, floats. */
    FOUR(4, 4),
    /** Eight-byte values copied as they are: longs, timestamps, times, doubles. */
    EIGHT(8, 8),
    /** Decimals stored as ints, widened to Arrow's 16-byte decimals. */
    DECIMAL_FROM_INT(4, 16),
    /** Decimals stored as longs, widened to Arrow's 16-byte decimals. */
    DECIMAL_FROM_LONG(8, 16),
    /** Fixed-length bytes copied as they are (UUIDs, fixed): the column's length ({@link #stored}). */
    FIXED_BYTES(0, 0),
    /** Decimals stored as big-endian fixed-length bytes, turned into Arrow's 16 little-endian bytes. */
    DECIMAL_FROM_BYTES(0, 16);

    final int stored;
    final int width;

    Kind(int stored, int width) {
      this.stored = stored;
      this.width = width;
    }
  }

  /**
   * A chunk's dictionary: strings, binary and fixed-length bytes laid end to end, and where each starts;
   * other fixed-width values as longs (ints and floats' bits sign-extended).
   */
  record Dictionary(byte[] bytes, int[] starts, long[] values, int size) {
    /**
     * Decodes a dictionary page; its values are copied out of the page, which is decompressed into the
     * thread's page buffer (the page's bytes are the first {@code size} of it, the rest what was there).
     */
    static Dictionary of(PageHeader header, byte[] file, int at, ArrowChunk chunk, ArrowColumnPages.Buffers buffers)
        throws IOException {
      Encoding encoding = Encoding.valueOf(header.getDictionary_page_header().getEncoding().name());
      if (encoding != Encoding.PLAIN && encoding != Encoding.PLAIN_DICTIONARY) {
        throw new ArrowColumnPages.Unsupported("a dictionary in " + encoding + " in " + chunk.file);
      }
      int size = header.getDictionary_page_header().getNum_values();
      int pageSize = header.getUncompressed_page_size();
      byte[] page = ArrowPageDecoding.decompress(chunk, file, at, header.getCompressed_page_size(), pageSize, buffers);
      // an uncompressed page is as long as the file says it is compressed: a header that overstates its size
      // must fail here, naming the column, not with an index out of the page's bounds
      pageSize = Math.min(pageSize, page.length);
      boolean bytes = chunk.kind == Kind.VARIABLE || chunk.kind == Kind.FIXED_BYTES
          || chunk.kind == Kind.DECIMAL_FROM_BYTES;
      if (size < 0 || pageSize < 0 || (long) size * chunk.stored > pageSize) {
        throw new IllegalStateException("The dictionary of column " + chunk.descriptor + " of " + chunk.file
            + " holds fewer bytes than its " + size + " values");
      } else if (!bytes) {
        long[] values = new long[size];
        // a loop for each width: one that decides per value is compiled anew each time a column of the other
        // width reaches it, in the first calls of a JVM (the compiler's loop predicates fail)
        if (chunk.stored == 4) {
          for (int i = 0; i < size; i++) {
            values[i] = (int) ArrowColumnPages.INT.get(page, 4 * i);
          }
        } else {
          for (int i = 0; i < size; i++) {
            values[i] = (long) ArrowColumnPages.LONG.get(page, 8 * i);
          }
        }
        return new Dictionary(null, null, values, size);
      }
      byte[] values = new byte[pageSize + ArrowColumnPages.SLACK];
      int[] starts = new int[size + 1];
      int length = chunk.kind == Kind.VARIABLE ? strings(page, pageSize, size, values, starts, chunk)
          : fixedBytes(page, size, values, starts, chunk.stored);
      starts[size] = length;
      return new Dictionary(values, starts, null, size);
    }

    /** Copies strings or binary values, each after its 4-byte length; returns their bytes. */
    private static int strings(byte[] page, int pageSize, int size, byte[] values, int[] starts, ArrowChunk chunk) {
      int position = 0;
      int length = 0;
      for (int i = 0; i < size; i++) {
        int n = ArrowPageDecoding.valueLength(page, position, pageSize, chunk);
        ArrowPageDecoding.copy(page, position + 4, values, length, n);
        position += 4 + n;
        starts[i] = length;
        length += n;
      }
      return length;
    }

    /** Copies fixed-length values of {@code stored} bytes each; returns their bytes. */
    private static int fixedBytes(byte[] page, int size, byte[] values, int[] starts, int stored) {
      for (int i = 0; i < size; i++) {
        ArrowPageDecoding.copy(page, i * stored, values, i * stored, stored);
        starts[i] = i * stored;
      }
      return size * stored;
    }
  }

  /**
   * How a column of the table's type is decoded from a file's column of this Parquet type, or null
   * when this reader does not decode it into the engine's Arrow vector.
   */
  static Kind kindOf(org.apache.iceberg.types.Type type, PrimitiveType stored) {
    PrimitiveTypeName physical = stored.getPrimitiveTypeName();
    LogicalTypeAnnotation logical = stored.getLogicalTypeAnnotation();
    int length = stored.getTypeLength();
    return switch (type.typeId()) {
      case STRING, BINARY -> physical == PrimitiveTypeName.BINARY ? Kind.VARIABLE : null;
      case BOOLEAN -> physical == PrimitiveTypeName.BOOLEAN ? Kind.BOOLEAN : null;
      case UUID, FIXED -> physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
          && length == (type instanceof Types.FixedType fixed ? fixed.length() : 16) ? Kind.FIXED_BYTES : null;
      case TIME -> physical == PrimitiveTypeName.INT64
          && logical instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation time
          && time.getUnit() == LogicalTypeAnnotation.TimeUnit.MICROS ? Kind.EIGHT : null;
      case INTEGER, DATE -> physical == PrimitiveTypeName.INT32 ? Kind.FOUR : null;
      case FLOAT -> physical == PrimitiveTypeName.FLOAT ? Kind.FOUR : null;
      case LONG -> physical == PrimitiveTypeName.INT64 ? Kind.EIGHT : null;
      case DOUBLE -> physical == PrimitiveTypeName.DOUBLE ? Kind.EIGHT : null;
      case TIMESTAMP -> physical == PrimitiveTypeName.INT64
          && logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp
          && timestamp.getUnit() == LogicalTypeAnnotation.TimeUnit.MICROS ? Kind.EIGHT : null;
      case DECIMAL -> {
        int scale = ((Types.DecimalType) type).scale();
        if (!(logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal)
            || decimal.getScale() != scale) {
          yield null;
        }
        yield physical == PrimitiveTypeName.INT32 ? Kind.DECIMAL_FROM_INT
            : physical == PrimitiveTypeName.INT64 ? Kind.DECIMAL_FROM_LONG
            : physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY && length <= 16 ? Kind.DECIMAL_FROM_BYTES : null;
      }
      default -> null;
    };
  }
}
