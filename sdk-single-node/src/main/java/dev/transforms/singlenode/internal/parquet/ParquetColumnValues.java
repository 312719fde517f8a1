package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
  private PageValues.DictionaryStrings strings; // the dictionary's values as strings, decoded when first read

  /**
   * @param pages the column's pages in one row group, decompressed as Parquet reads them
   * @param file the file's location, for messages
   */
  ParquetColumnValues(ColumnDescriptor descriptor, PageReader pages, String file) {
    this(descriptor, pages, false, file);
  }

  /**
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
          return new PageValues.PlainBooleans(buffer, offset);
        case INT32:
        case FLOAT:
          return new PageValues.PlainFixedWidth(buffer, offset, 4);
        case INT64:
        case DOUBLE:
          return new PageValues.PlainFixedWidth(buffer, offset, 8);
        case FIXED_LEN_BYTE_ARRAY:
          return new PageValues.PlainFixedWidth(buffer, offset, descriptor.getPrimitiveType().getTypeLength());
        case BINARY:
          return new PageValues.PlainBinary(buffer, offset);
        default:
          break; // INT96: Parquet's reader
      }
    } else if ((encoding == Encoding.RLE_DICTIONARY || encoding == Encoding.PLAIN_DICTIONARY)
        && dictionary != null) {
      int width = buffer.get(offset) & 0xFF;
      if (strings == null) {
        strings = new PageValues.DictionaryStrings(dictionary);
      }
      return new PageValues.DictionaryIds(dictionary, strings, new Hybrid.Lazy(buffer, offset + 1, buffer.limit(), width, present));
    }
    ValuesReader reader =
        encoding.usesDictionary()
            ? encoding.getDictionaryBasedValuesReader(descriptor, ValuesType.VALUES, dictionary)
            : encoding.getValuesReader(descriptor, ValuesType.VALUES);
    ByteBuffer rest = buffer.duplicate();
    rest.position(offset);
    reader.initFromPage(count, ByteBufferInputStream.wrap(rest.slice()));
    return new PageValues.ParquetValues(reader);
  }

  private static int bitWidth(int maxValue) {
    return 32 - Integer.numberOfLeadingZeros(maxValue);
  }
}
