package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.shaded.org.apache.avro.util.Utf8;
import org.apache.iceberg.shaded.org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.column.Dictionary;
import org.apache.iceberg.shaded.org.apache.parquet.column.Encoding;
import org.apache.iceberg.shaded.org.apache.parquet.column.ValuesType;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.DataPage;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.DataPageV1;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.DataPageV2;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.DictionaryPage;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.PageReader;
import org.apache.iceberg.shaded.org.apache.parquet.column.values.ValuesReader;
import org.apache.iceberg.shaded.org.apache.parquet.io.api.Binary;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The values of one flat (not repeated) Parquet column in one row group, read row by row.
 *
 * <p>Pages in the encodings Iceberg writes by default (plain values, dictionary ids, run-length /
 * bit-packed definition levels) are decoded here, straight from the page buffer: skipping a value
 * is an index increment, and nothing is converted until it is asked for. Pages in other encodings
 * are read through Parquet's own value readers, which is slower but equally correct.
 *
 * <p>Rows are visited in order with {@link #advance(int)}, which may pass over many rows at once:
 * their values are skipped without being decoded, and only their pages' levels are looked at. When
 * it returns true the row has a value, which may be read with the getter of the column's physical
 * type (at most once) or left alone.
 */
final class ParquetColumnValues {
  private final ColumnDescriptor descriptor;
  private final String file;
  private final ColumnPages pages;
  private final int maxDefinitionLevel;
  private final Dictionary dictionary;

  private byte[] defined = new byte[0]; // per level of the page: 1 when the row has a value
  // scratch space for the levels of a page, kept from page to page (a page of a million rows would
  // otherwise allocate megabytes each)
  private int[] levelBuffer = new int[0];
  private boolean allDefined = true; // every row of the page has a value
  private int levelCount = 0;
  private int level = -1; // the current row's index in the page
  private boolean unreadValue = false; // the current row has a value not yet read or skipped
  private PageValues values;
  private DictionaryStrings strings; // the dictionary's values as strings, decoded when first read

  /**
   * @param descriptor the column
   * @param pages the column's pages in one row group, decompressed as Parquet reads them
   * @param file the file's location, for messages
   */
  ParquetColumnValues(ColumnDescriptor descriptor, PageReader pages, String file) {
    this(descriptor, pages, false, file);
  }

  /**
   * @param descriptor the column
   * @param pages the column's pages in one row group
   * @param deferred whether the pages come still compressed ({@link ColumnPages})
   * @param file the file's location, for messages
   */
  ParquetColumnValues(ColumnDescriptor descriptor, PageReader pages, boolean deferred, String file) {
    this.descriptor = descriptor;
    this.file = file;
    this.pages = new ColumnPages(pages, deferred, where(descriptor, file));
    this.maxDefinitionLevel = descriptor.getMaxDefinitionLevel();
    DictionaryPage dictionaryPage = this.pages.dictionary();
    try {
      this.dictionary =
          dictionaryPage == null
              ? null
              : dictionaryPage.getEncoding().initDictionary(descriptor, dictionaryPage);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read the dictionary of " + where(), e);
    }
  }

  /**
   * Moves forward by {@code rows} rows (at least one), skipping the values of the rows passed
   * over; returns whether the row moved to has a value (is not null).
   */
  boolean advance(int rows) {
    if (rows == 1 && level + 1 < levelCount) { // the common case: the next row, on this page
      if (unreadValue) {
        values.skip(1);
      }
      level += 1;
      boolean present = allDefined || defined[level] != 0;
      unreadValue = present;
      return present;
    }
    int remaining = rows - 1; // rows to pass over before the target
    if (unreadValue) {
      values.skip(1);
    }
    if (level + 1 + remaining >= levelCount) {
      remaining -= levelCount - (level + 1);
      // pages passed over whole are dropped undecoded, and deferred ones undecompressed
      int pageRows;
      while ((pageRows = pages.nextRows()) >= 0 && remaining >= pageRows) {
        remaining -= pageRows;
        pages.skip();
      }
      readPage();
      level = -1;
    }
    if (remaining > 0) {
      values.skip(presentIn(level + 1, level + 1 + remaining));
    }
    level += 1 + remaining;
    boolean present = allDefined || defined[level] != 0;
    unreadValue = present;
    return present;
  }

  /**
   * Reads the integral values of the rows after the current one in bulk: up to {@code max} rows,
   * all on one page (the next page when the current one is done). {@code present[i]} is false for
   * a null; {@code out[i]} is then left alone. The last row read becomes the current row. Returns
   * the number of rows read, at least one; there must be at least one row left in the row group.
   */
  int nextLongs(long[] out, boolean[] present, int max, boolean int64) {
    if (unreadValue) {
      values.skip(1);
      unreadValue = false;
    }
    while (level + 1 >= levelCount) { // a page may hold no rows at all
      readPage();
      level = -1;
    }
    int first = level + 1;
    int count = Math.min(max, levelCount - first);
    if (allDefined) {
      java.util.Arrays.fill(present, 0, count, true);
      values.readIntegral(out, 0, count, int64);
    } else {
      for (int i = 0; i < count; i++) {
        boolean has = defined[first + i] != 0;
        present[i] = has;
        if (has) {
          out[i] = int64 ? values.readLong() : values.readInteger();
        }
      }
    }
    level += count;
    return count;
  }

  private int presentIn(int from, int to) {
    if (allDefined) {
      return to - from;
    }
    int present = 0;
    for (int i = from; i < to; i++) {
      present += defined[i];
    }
    return present;
  }

  boolean getBoolean() {
    unreadValue = false;
    return values.readBoolean();
  }

  int getInteger() {
    unreadValue = false;
    return values.readInteger();
  }

  long getLong() {
    unreadValue = false;
    return values.readLong();
  }

  float getFloat() {
    unreadValue = false;
    return values.readFloat();
  }

  double getDouble() {
    unreadValue = false;
    return values.readDouble();
  }

  /** The value as bytes; valid until the next row. */
  Binary getBinary() {
    unreadValue = false;
    return values.readBinary();
  }

  /** The value's bytes, in an array of their own. */
  byte[] getBytes() {
    unreadValue = false;
    return values.readBytes();
  }

  /**
   * The value as Avro's {@code Utf8}, its bytes not decoded. A value of a dictionary-encoded page
   * is one instance shared by every row that holds it, so the caller must never change it.
   */
  Utf8 getUtf8() {
    unreadValue = false;
    return values.readUtf8();
  }

  /** The value as a string, its bytes decoded as UTF-8. */
  String getString() {
    unreadValue = false;
    return values.readString();
  }

  /** The column and its file, for messages. */
  private String where() {
    return where(descriptor, file);
  }

  /** The column and its file, as messages name them: {@code column a.b of s3://...}. */
  static String where(ColumnDescriptor descriptor, String file) {
    return "column " + String.join(".", descriptor.getPath()) + " of " + file;
  }

  // -----------------------------------------------------------------------------------------------
  // Pages

  private void readPage() {
    DataPage page = pages.take();
    if (page == null) {
      throw new IllegalStateException(where() + " has fewer values than its row group");
    }
    try {
      if (page instanceof DataPageV1) {
        readPage((DataPageV1) page);
      } else {
        readPage((DataPageV2) page);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read a page of " + where(), e);
    }
  }

  private void readPage(DataPageV1 page) throws IOException {
    ByteBuffer buffer = page.getBytes().toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
    int count = page.getValueCount();
    int offset = 0;
    int present = count;
    allDefined = true;
    if (maxDefinitionLevel > 0) {
      if (page.getDlEncoding() == Encoding.RLE) {
        int length = buffer.getInt(0);
        present = decodeLevels(buffer, 4, 4 + length, count);
        offset = 4 + length;
      } else {
        ValuesReader levels = page.getDlEncoding().getValuesReader(descriptor, ValuesType.DEFINITION_LEVEL);
        ByteBufferInputStream in = ByteBufferInputStream.wrap(buffer.duplicate());
        levels.initFromPage(count, in);
        present = readLevels(levels, count);
        offset = (int) in.position();
      }
    }
    levelCount = count;
    values = values(page.getValueEncoding(), buffer, offset, count, present);
  }

  private void readPage(DataPageV2 page) throws IOException {
    int count = page.getValueCount();
    int present = count;
    allDefined = true;
    if (maxDefinitionLevel > 0) {
      ByteBuffer levels = page.getDefinitionLevels().toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
      present = decodeLevels(levels, 0, levels.limit(), count);
    }
    ByteBuffer data = page.getData().toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
    levelCount = count;
    values = values(page.getDataEncoding(), data, 0, count, present);
  }

  /** Decodes run-length / bit-packed definition levels; returns how many rows have a value. */
  private int decodeLevels(ByteBuffer buffer, int start, int end, int count) {
    if (maxDefinitionLevel == 1) {
      return decodeFlags(buffer, start, end, count);
    }
    int[] levels = levelRoom(count);
    Hybrid.decode(buffer, start, end, bitWidth(maxDefinitionLevel), levels, count);
    return markDefined(levels, count);
  }

  /**
   * Definition levels of one bit (a top-level optional column), decoded straight into
   * {@link #defined}. Returns how many rows have a value.
   */
  private int decodeFlags(ByteBuffer buffer, int start, int end, int count) {
    if (defined.length < count + 8) {
      defined = new byte[count + 8]; // room for the eight flags of a last, partial byte
    }
    int present = Hybrid.flags(buffer, start, end, count, defined, 0);
    allDefined = present == count;
    return present;
  }

  /** Reads definition levels in another encoding; returns how many rows have a value. */
  private int readLevels(ValuesReader reader, int count) {
    int[] levels = levelRoom(count);
    for (int i = 0; i < count; i++) {
      levels[i] = reader.readInteger();
    }
    return markDefined(levels, count);
  }

  private int[] levelRoom(int count) {
    if (levelBuffer.length < count) {
      levelBuffer = new int[count];
    }
    return levelBuffer;
  }

  /** Notes which rows of the page have a value; returns how many do. */
  private int markDefined(int[] levels, int count) {
    if (defined.length < count) {
      defined = new byte[count];
    }
    int present = 0;
    for (int i = 0; i < count; i++) {
      boolean has = levels[i] == maxDefinitionLevel;
      defined[i] = (byte) (has ? 1 : 0);
      present += has ? 1 : 0;
    }
    allDefined = present == count;
    return present;
  }

  private PageValues values(Encoding encoding, ByteBuffer buffer, int offset, int count, int present)
      throws IOException {
    PrimitiveTypeName type = descriptor.getPrimitiveType().getPrimitiveTypeName();
    if (encoding == Encoding.PLAIN) {
      switch (type) {
        case BOOLEAN:
          return new PlainBooleans(buffer, offset);
        case INT32:
        case FLOAT:
          return new PlainFixedWidth(buffer, offset, 4);
        case INT64:
        case DOUBLE:
          return new PlainFixedWidth(buffer, offset, 8);
        case FIXED_LEN_BYTE_ARRAY:
          return new PlainFixedWidth(buffer, offset, descriptor.getPrimitiveType().getTypeLength());
        case BINARY:
          return new PlainBinary(buffer, offset);
        default:
          break; // INT96: Parquet's reader
      }
    } else if ((encoding == Encoding.RLE_DICTIONARY || encoding == Encoding.PLAIN_DICTIONARY)
        && dictionary != null) {
      int width = buffer.get(offset) & 0xFF;
      if (strings == null) {
        strings = new DictionaryStrings(dictionary);
      }
      return new DictionaryIds(dictionary, strings, new LazyHybrid(buffer, offset + 1, buffer.limit(), width, present));
    }
    ValuesReader reader =
        encoding.usesDictionary()
            ? encoding.getDictionaryBasedValuesReader(descriptor, ValuesType.VALUES, dictionary)
            : encoding.getValuesReader(descriptor, ValuesType.VALUES);
    ByteBuffer rest = buffer.duplicate();
    rest.position(offset);
    reader.initFromPage(count, ByteBufferInputStream.wrap(rest.slice()));
    return new ParquetValues(reader);
  }

  private static int bitWidth(int maxValue) {
    return 32 - Integer.numberOfLeadingZeros(maxValue);
  }

  // -----------------------------------------------------------------------------------------------
  // Values of one page

  /** The non-null values of a page, in order. */
  private abstract static class PageValues {
    /** Skips the next {@code count} values. */
    abstract void skip(int count);

    /** Reads the next {@code count} values, all non-null ints or longs, into {@code out}. */
    void readIntegral(long[] out, int offset, int count, boolean int64) {
      for (int i = offset; i < offset + count; i++) {
        out[i] = int64 ? readLong() : readInteger();
      }
    }

    boolean readBoolean() {
      throw new UnsupportedOperationException();
    }

    int readInteger() {
      throw new UnsupportedOperationException();
    }

    long readLong() {
      throw new UnsupportedOperationException();
    }

    float readFloat() {
      throw new UnsupportedOperationException();
    }

    double readDouble() {
      throw new UnsupportedOperationException();
    }

    Binary readBinary() {
      throw new UnsupportedOperationException();
    }

    String readString() {
      return utf8(readBinary());
    }

    byte[] readBytes() {
      return readBinary().getBytes().clone(); // Binary may hand out an array it keeps
    }

    Utf8 readUtf8() {
      return new Utf8(readBytes());
    }
  }

  /** Plain values of a fixed width: ints, longs, floats, doubles, fixed-length bytes. */
  private static final class PlainFixedWidth extends PageValues {
    private final ByteBuffer buffer;
    private final int width;
    private int position;

    private PlainFixedWidth(ByteBuffer buffer, int offset, int width) {
      this.buffer = buffer;
      this.width = width;
      this.position = offset;
    }

    @Override
    void skip(int count) {
      position += count * width;
    }

    @Override
    int readInteger() {
      int value = buffer.getInt(position);
      position += 4;
      return value;
    }

    @Override
    long readLong() {
      long value = buffer.getLong(position);
      position += 8;
      return value;
    }

    @Override
    void readIntegral(long[] out, int offset, int count, boolean int64) {
      int at = position;
      if (int64) {
        for (int i = offset; i < offset + count; i++, at += 8) {
          out[i] = buffer.getLong(at);
        }
      } else {
        for (int i = offset; i < offset + count; i++, at += 4) {
          out[i] = buffer.getInt(at);
        }
      }
      position = at;
    }

    @Override
    float readFloat() {
      float value = buffer.getFloat(position);
      position += 4;
      return value;
    }

    @Override
    double readDouble() {
      double value = buffer.getDouble(position);
      position += 8;
      return value;
    }

    @Override
    Binary readBinary() {
      Binary value = slice(buffer, position, width);
      position += width;
      return value;
    }
  }

  /** Plain byte arrays: each a 4-byte length, then the bytes. */
  private static final class PlainBinary extends PageValues {
    private final ByteBuffer buffer;
    private int position;

    private PlainBinary(ByteBuffer buffer, int offset) {
      this.buffer = buffer;
      this.position = offset;
    }

    @Override
    void skip(int count) {
      for (int i = 0; i < count; i++) {
        position += 4 + buffer.getInt(position);
      }
    }

    @Override
    Binary readBinary() {
      int length = buffer.getInt(position);
      Binary value = slice(buffer, position + 4, length);
      position += 4 + length;
      return value;
    }

    @Override
    byte[] readBytes() {
      if (!buffer.hasArray()) {
        return super.readBytes();
      }
      int length = buffer.getInt(position);
      int start = buffer.arrayOffset() + position + 4;
      position += 4 + length;
      return java.util.Arrays.copyOfRange(buffer.array(), start, start + length);
    }

    @Override
    String readString() {
      if (!buffer.hasArray()) {
        return super.readString();
      }
      int length = buffer.getInt(position);
      String value =
          new String(buffer.array(), buffer.arrayOffset() + position + 4, length, StandardCharsets.UTF_8);
      position += 4 + length;
      return value;
    }
  }

  /** Plain booleans: one bit each, least significant first. */
  private static final class PlainBooleans extends PageValues {
    private final ByteBuffer buffer;
    private final int offset;
    private int index;

    private PlainBooleans(ByteBuffer buffer, int offset) {
      this.buffer = buffer;
      this.offset = offset;
    }

    @Override
    void skip(int count) {
      index += count;
    }

    @Override
    boolean readBoolean() {
      boolean value = ((buffer.get(offset + (index >>> 3)) >>> (index & 7)) & 1) != 0;
      index += 1;
      return value;
    }
  }

  /** Dictionary ids, decoded as they are read ({@link LazyHybrid}), looked up in the dictionary. */
  private static final class DictionaryIds extends PageValues {
    private final Dictionary dictionary;
    private final LazyHybrid ids;
    private int index;

    private final DictionaryStrings strings;

    private DictionaryIds(Dictionary dictionary, DictionaryStrings strings, LazyHybrid ids) {
      this.dictionary = dictionary;
      this.strings = strings;
      this.ids = ids;
    }

    @Override
    void skip(int count) {
      index += count;
    }

    @Override
    boolean readBoolean() {
      return dictionary.decodeToBoolean(ids.get(index++));
    }

    @Override
    int readInteger() {
      return dictionary.decodeToInt(ids.get(index++));
    }

    @Override
    long readLong() {
      return dictionary.decodeToLong(ids.get(index++));
    }

    @Override
    float readFloat() {
      return dictionary.decodeToFloat(ids.get(index++));
    }

    @Override
    double readDouble() {
      return dictionary.decodeToDouble(ids.get(index++));
    }

    @Override
    Binary readBinary() {
      return dictionary.decodeToBinary(ids.get(index++));
    }

    @Override
    String readString() {
      return strings.get(ids.get(index++));
    }

    @Override
    Utf8 readUtf8() {
      return strings.asUtf8(ids.get(index++));
    }
  }

  /** Any other encoding, through Parquet's value reader. */
  private static final class ParquetValues extends PageValues {
    private final ValuesReader reader;

    private ParquetValues(ValuesReader reader) {
      this.reader = reader;
    }

    @Override
    void skip(int count) {
      reader.skip(count);
    }

    @Override
    boolean readBoolean() {
      return reader.readBoolean();
    }

    @Override
    int readInteger() {
      return reader.readInteger();
    }

    @Override
    long readLong() {
      return reader.readLong();
    }

    @Override
    float readFloat() {
      return reader.readFloat();
    }

    @Override
    double readDouble() {
      return reader.readDouble();
    }

    @Override
    Binary readBinary() {
      return reader.readBytes();
    }
  }

  /**
   * A dictionary's values as strings, each decoded once, when first read; and as UTF-8 bytes, each
   * copied once, when first read so.
   */
  private static final class DictionaryStrings {
    private final Dictionary dictionary;
    private final String[] decoded;
    private Utf8[] bytes;

    private DictionaryStrings(Dictionary dictionary) {
      this.dictionary = dictionary;
      this.decoded = new String[dictionary.getMaxId() + 1];
    }

    String get(int id) {
      String value = decoded[id];
      if (value == null) {
        value = utf8(dictionary.decodeToBinary(id));
        decoded[id] = value;
      }
      return value;
    }

    Utf8 asUtf8(int id) {
      if (bytes == null) {
        bytes = new Utf8[decoded.length];
      }
      Utf8 value = bytes[id];
      if (value == null) {
        value = new Utf8(dictionary.decodeToBinary(id).getBytes().clone());
        bytes[id] = value;
      }
      return value;
    }
  }

  private static String utf8(Binary binary) {
    ByteBuffer bytes = binary.toByteBuffer();
    if (bytes.hasArray()) {
      return new String(
          bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining(), StandardCharsets.UTF_8);
    }
    return StandardCharsets.UTF_8.decode(bytes).toString();
  }

  private static Binary slice(ByteBuffer buffer, int position, int length) {
    if (buffer.hasArray()) {
      return Binary.fromConstantByteArray(buffer.array(), buffer.arrayOffset() + position, length);
    }
    byte[] bytes = new byte[length];
    buffer.duplicate().position(position).get(bytes);
    return Binary.fromConstantByteArray(bytes);
  }

  /**
   * Values of Parquet's run-length / bit-packed hybrid encoding read in ascending order of index,
   * decoded when first asked for: a run-length run is one value; a bit-packed run is unpacked eight
   * values at a time, only where a value is read. A cursor that skips most rows of a page (a row
   * edit reads a column only where a key matched) thus decodes few of its dictionary ids; one that
   * reads every row decodes each group of eight once, as a whole-page decode would.
   */
  static final class LazyHybrid {
    private final ByteBuffer buffer;
    private final int end;
    private final int width;
    private final int count;
    private int position; // where the next run's header is
    private int runStart = 0; // the values [runStart, runEnd) are the current run's
    private int runEnd = 0;
    private boolean packed;
    private int runValue; // a run-length run's value
    private int runData; // where a bit-packed run's first group is
    private final int[] group = new int[8];
    private int groupStart = -1; // the index of group[0], or -1

    LazyHybrid(ByteBuffer buffer, int start, int end, int width, int count) {
      this.buffer = buffer;
      this.position = start;
      this.end = end;
      this.width = width;
      this.count = count;
    }

    /** The value at an index, not before the index of the previous call. */
    int get(int index) {
      while (index >= runEnd) {
        nextRun();
      }
      if (!packed) {
        return runValue;
      }
      int start = runStart + ((index - runStart) & ~7);
      if (start != groupStart) {
        unpack(runData + ((start - runStart) >>> 3) * width);
        groupStart = start;
      }
      return group[index - start];
    }

    private void nextRun() {
      // a value past the page's last one is an error, as if the data ended there
      long read = Hybrid.header(buffer, runEnd < count ? position : end, end, runEnd, count);
      int header = (int) (read >>> 32);
      position = (int) read;
      runStart = runEnd;
      if ((header & 1) == 0) {
        packed = false;
        runValue = Hybrid.runValue(buffer, position, width);
        position += (width + 7) / 8;
        runEnd = runStart + (header >>> 1);
      } else {
        packed = true;
        runData = position;
        int groups = header >>> 1;
        position += groups * width;
        runEnd = runStart + groups * 8;
      }
    }

    /** The eight values of the group packed at a byte offset, into {@link #group}. */
    private void unpack(int at) {
      long mask = (1L << width) - 1;
      long bits = 0;
      int available = 0;
      int read = at;
      for (int i = 0; i < 8; i++) {
        while (available < width) {
          bits |= (long) (read < end ? buffer.get(read) & 0xFF : 0) << available;
          read += 1;
          available += 8;
        }
        group[i] = (int) (bits & mask);
        bits >>>= width;
        available -= width;
      }
    }
  }

  /** Parquet's run-length / bit-packed hybrid encoding of small integers. */
  static final class Hybrid {
    private Hybrid() {}

    /** Eight bytes written at once into a byte array, least significant first. */
    private static final java.lang.invoke.VarHandle FLAG_BYTES =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Per byte of eight one-bit levels, the eight flags (0 or 1) as the bytes of a long, bit 0 first. */
    private static final long[] SPREAD = new long[256];

    static {
      for (int flags = 0; flags < 256; flags++) {
        long spread = 0;
        for (int bit = 0; bit < 8; bit++) {
          spread |= (long) ((flags >>> bit) & 1) << (8 * bit);
        }
        SPREAD[flags] = spread;
      }
    }

    /**
     * The header of the run at a position (an unsigned varint: the run's length and kind), in the
     * high 32 bits, and the position after it, in the low 32 bits.
     *
     * @param end where the encoded data ends
     * @param decoded the values decoded before this run, and {@code count} all of them, for the
     *     message when the data ends early
     * @throws IllegalStateException if the data ends before the header
     */
    static long header(ByteBuffer buffer, int position, int end, int decoded, int count) {
      if (position >= end) {
        throw new IllegalStateException("Run-length encoded data ends after " + decoded + " of " + count + " values");
      }
      int header = 0;
      int shift = 0;
      int b;
      do {
        b = buffer.get(position++) & 0xFF;
        header |= (b & 0x7F) << shift;
        shift += 7;
      } while ((b & 0x80) != 0);
      return ((long) header << 32) | position;
    }

    /**
     * Decodes {@code count} one-bit values (a top-level optional column's definition levels) from
     * {@code buffer[start, end)} into flags, 0 or 1, at {@code out[offset]} onwards: a run-length run
     * is a fill, a bit-packed byte becomes eight flags at once, so {@code out} needs room for eight
     * flags past the last. Returns how many of the values are 1.
     */
    static int flags(ByteBuffer buffer, int start, int end, int count, byte[] out, int offset) {
      int position = start;
      int filled = 0;
      int present = 0;
      while (filled < count) {
        long read = header(buffer, position, end, filled, count);
        int header = (int) (read >>> 32);
        position = (int) read;
        if ((header & 1) == 0) {
          int value = buffer.get(position++) & 1;
          int until = Math.min(count, filled + (header >>> 1));
          java.util.Arrays.fill(out, offset + filled, offset + until, (byte) value);
          present += value * (until - filled);
          filled = until;
        } else {
          int bytes = header >>> 1; // eight one-bit values in each
          for (int i = 0; i < bytes && filled < count; i++) {
            int flags = buffer.get(position + i) & 0xFF;
            FLAG_BYTES.set(out, offset + filled, SPREAD[flags]);
            int rows = Math.min(8, count - filled);
            present += Integer.bitCount(flags & ((1 << rows) - 1));
            filled += rows;
          }
          position += bytes;
        }
      }
      return present;
    }

    /** The value of a run-length run, stored after its header in the fewest whole bytes, little-endian. */
    static int runValue(ByteBuffer buffer, int position, int width) {
      int value = 0;
      for (int i = 0; i < (width + 7) / 8; i++) {
        value |= (buffer.get(position + i) & 0xFF) << (8 * i);
      }
      return value;
    }

    /** Eight bytes read at once from a byte array, least significant first. */
    private static final java.lang.invoke.VarHandle WORD =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /**
     * Decodes {@code count} values of up to 32 bits each from {@code bytes[start, end)} into
     * {@code out}: a run-length run is a fill, a bit-packed value one 8-byte read, a shift and a mask.
     *
     * @throws IllegalStateException if the data ends before the values
     */
    static void decode(byte[] bytes, int start, int end, int width, int[] out, int count) {
      ByteBuffer headers = ByteBuffer.wrap(bytes);
      int position = start;
      int filled = 0;
      int valueBytes = (width + 7) / 8;
      long mask = (1L << width) - 1;
      while (filled < count) {
        long headed = header(headers, position, end, filled, count);
        int header = (int) (headed >>> 32);
        position = (int) headed;
        if ((header & 1) == 0) {
          if (position + valueBytes > end) {
            throw new IllegalStateException("Run-length encoded data ends inside a run's value");
          }
          int until = Math.min(count, filled + (header >>> 1));
          java.util.Arrays.fill(out, filled, until, runValue(headers, position, width));
          position += valueBytes;
          filled = until;
        } else {
          int until = Math.min(count, filled + (header >>> 1) * 8);
          int used = (int) (((long) (until - filled) * width + 7) / 8);
          if (position + used > end) {
            throw new IllegalStateException("Bit-packed data ends after " + filled + " of " + count + " values");
          }
          for (int i = filled; i < until; i++) {
            long bit = (long) (i - filled) * width;
            int at = position + (int) (bit >>> 3);
            long word = at + 8 <= bytes.length ? (long) WORD.get(bytes, at) : tail(bytes, at);
            out[i] = (int) ((word >>> (bit & 7)) & mask);
          }
          position += (header >>> 1) * width;
          filled = until;
        }
      }
    }

    /** The bytes from {@code at} to the end of the array as the low bytes of a word. */
    private static long tail(byte[] bytes, int at) {
      long word = 0;
      for (int i = 0; at + i < bytes.length && i < 8; i++) {
        word |= (long) (bytes[at + i] & 0xFF) << (8 * i);
      }
      return word;
    }

    /**
     * Decodes {@code count} values of {@code width} bits from {@code buffer[start, end)} into
     * {@code out}, through {@link #decode(byte[], int, int, int, int[], int)}: from the buffer's array,
     * or from a copy of the range when the buffer is direct.
     */
    static void decode(ByteBuffer buffer, int start, int end, int width, int[] out, int count) {
      if (buffer.hasArray()) {
        int offset = buffer.arrayOffset();
        decode(buffer.array(), offset + start, offset + end, width, out, count);
      } else {
        byte[] bytes = new byte[end - start];
        buffer.get(start, bytes);
        decode(bytes, 0, bytes.length, width, out, count);
      }
    }
  }
}
