package dev.transforms.singlenode.internal.parquet;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.shaded.org.apache.avro.util.Utf8;
import org.apache.iceberg.shaded.org.apache.parquet.column.Dictionary;
import org.apache.iceberg.shaded.org.apache.parquet.column.values.ValuesReader;
import org.apache.iceberg.shaded.org.apache.parquet.io.api.Binary;

/**
 * The non-null values of one data page, read in order, by encoding: plain fixed-width values, plain
 * binaries, plain booleans, dictionary ids, and Parquet's own value readers for any other encoding.
 */
abstract class PageValues {
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




  /** Plain values of a fixed width: ints, longs, floats, doubles, fixed-length bytes. */
  static final class PlainFixedWidth extends PageValues {
    private final ByteBuffer buffer;
    private final int width;
    private int position;

    PlainFixedWidth(ByteBuffer buffer, int offset, int width) {
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
  static final class PlainBinary extends PageValues {
    private final ByteBuffer buffer;
    private int position;

    PlainBinary(ByteBuffer buffer, int offset) {
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
  static final class PlainBooleans extends PageValues {
    private final ByteBuffer buffer;
    private final int offset;
    private int index;

    PlainBooleans(ByteBuffer buffer, int offset) {
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

  /** Dictionary ids, decoded as they are read ({@link Hybrid.Lazy}), looked up in the dictionary. */
  static final class DictionaryIds extends PageValues {
    private final Dictionary dictionary;
    private final Hybrid.Lazy ids;
    private int index;

    private final DictionaryStrings strings;

    DictionaryIds(Dictionary dictionary, DictionaryStrings strings, Hybrid.Lazy ids) {
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
  static final class ParquetValues extends PageValues {
    private final ValuesReader reader;

    ParquetValues(ValuesReader reader) {
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
  static final class DictionaryStrings {
    private final Dictionary dictionary;
    private final String[] decoded;
    private Utf8[] bytes;

    DictionaryStrings(Dictionary dictionary) {
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

  static String utf8(Binary binary) {
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
}
