package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.iceberg.shaded.org.apache.parquet.bytes.BytesInput;
import org.apache.iceberg.shaded.org.apache.parquet.column.Encoding;
import org.apache.iceberg.shaded.org.apache.parquet.format.DataPageHeader;
import org.apache.iceberg.shaded.org.apache.parquet.format.DataPageHeaderV2;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageHeader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;
import dev.transforms.singlenode.internal.parquet.ArrowColumnPages.Buffers;
import dev.transforms.singlenode.internal.parquet.ArrowChunk.Dictionary;
import dev.transforms.singlenode.internal.parquet.ArrowChunk.Kind;
import dev.transforms.singlenode.internal.parquet.ArrowColumnPages.Part;
import dev.transforms.singlenode.internal.parquet.ArrowColumnPages.Unsupported;

/**
 * Decodes the data pages of a column chunk into Arrow buffers ({@link ArrowColumnPages.Part}): definition
 * levels into validity flags, plain and dictionary-encoded values into fixed-width values ({@link
 * ArrowFixedValues}) or the bytes and ends of strings and binaries, pages of format 1 and 2, uncompressed or
 * decompressed first.
 */
final class ArrowPageDecoding {

  private ArrowPageDecoding() {}

  static boolean usesDictionary(org.apache.iceberg.shaded.org.apache.parquet.format.Encoding encoding) {
    return encoding == org.apache.iceberg.shaded.org.apache.parquet.format.Encoding.PLAIN_DICTIONARY
        || encoding == org.apache.iceberg.shaded.org.apache.parquet.format.Encoding.RLE_DICTIONARY;
  }

  static void decodeV1(PageHeader header, byte[] file, int at, ArrowChunk chunk, Dictionary dictionary, Part part,
      Buffers buffers) throws IOException {
    DataPageHeader data = header.getData_page_header();
    int count = data.getNum_values();
    int size = header.getUncompressed_page_size();
    byte[] page = decompress(chunk, file, at, header.getCompressed_page_size(), size, buffers);
    int position = 0;
    int present = count;
    if (chunk.descriptor.getMaxDefinitionLevel() > 0) {
      if (Encoding.valueOf(data.getDefinition_level_encoding().name()) != Encoding.RLE) {
        throw new Unsupported("definition levels in " + data.getDefinition_level_encoding() + " in " + chunk.file);
      }
      int length = (int) ArrowColumnPages.INT.get(page, 0);
      if (length < 0 || 4L + length > size) {
        throw new IllegalStateException("A page of column " + chunk.descriptor + " of " + chunk.file
            + " has " + length + " bytes of definition levels in " + size);
      }
      present = levels(page, 4, 4 + length, count, part);
      position = 4 + length;
    }
    values(Encoding.valueOf(data.getEncoding().name()), page, position, size, count, present, dictionary,
        chunk, part, buffers);
  }

  static void decodeV2(PageHeader header, byte[] file, int at, ArrowChunk chunk, Dictionary dictionary, Part part,
      Buffers buffers) throws IOException {
    byte[] body = Arrays.copyOfRange(file, at, at + header.getCompressed_page_size());
    DataPageHeaderV2 data = header.getData_page_header_v2();
    int count = data.getNum_values();
    int repetition = data.getRepetition_levels_byte_length();
    int definition = data.getDefinition_levels_byte_length();
    int present = count;
    if (chunk.descriptor.getMaxDefinitionLevel() > 0) {
      present = levels(body, repetition, repetition + definition, count, part);
    }
    int levelBytes = repetition + definition;
    byte[] values;
    int position;
    if (data.isIs_compressed() && chunk.codec != CompressionCodecName.UNCOMPRESSED) {
      values = decompress(chunk, body, levelBytes, body.length - levelBytes,
          header.getUncompressed_page_size() - levelBytes);
      position = 0;
    } else {
      values = body;
      position = levelBytes;
    }
    values(Encoding.valueOf(data.getEncoding().name()), values, position, values.length, count, present,
        dictionary, chunk, part, buffers);
  }

  /**
   * Decodes one-bit definition levels into the part's flags for the page's rows; returns how many
   * rows have a value.
   */
  static int levels(byte[] page, int start, int end, int count, Part part) {
    if (part.present == null) {
      part.present = new byte[part.capacity + 8]; // room for the eight flags of a last, partial byte
    }
    int present = Hybrid.flags(ByteBuffer.wrap(page), start, end, count, part.present, part.rows);
    part.nulls += count - present;
    return present;
  }

  /** Decodes a page's values into the part, after its definition levels (if any) were. */
  static void values(Encoding encoding, byte[] page, int position, int end, int count, int present,
      Dictionary dictionary, ArrowChunk chunk, Part part, Buffers buffers) {
    byte[] flags = present < count ? part.present : null; // flags of this page's rows, from part.rows
    boolean dictionaryIds = encoding == Encoding.RLE_DICTIONARY || encoding == Encoding.PLAIN_DICTIONARY;
    if (encoding != Encoding.PLAIN && !dictionaryIds) {
      throw new Unsupported("values in " + encoding + " in " + chunk.file);
    }
    if (count > part.capacity - part.rows) {
      throw new Unsupported(chunk.file + ": the pages of column " + chunk.descriptor + " hold more values than"
          + " its row group has rows");
    }
    int[] ids = dictionaryIds ? ids(page, position, end, present, dictionary, chunk, buffers) : null;
    if (chunk.kind == Kind.BOOLEAN && ids == null) {
      plainBooleans(page, position, end, count, present, flags, chunk, part);
    } else if (chunk.kind == Kind.VARIABLE) {
      if (ids == null) {
        plainVariable(page, position, end, count, flags, chunk, part);
      } else {
        dictionaryVariable(ids, count, present, flags, dictionary, part);
      }
    } else if (ids == null) {
      ArrowFixedValues.plain(page, position, end, count, present, flags, chunk, part);
    } else if (chunk.kind != Kind.BOOLEAN) {
      ArrowFixedValues.dictionary(ids, count, present, flags, dictionary, chunk, part);
    } else {
      throw new Unsupported("dictionary-encoded booleans in " + chunk.file);
    }
    part.rows += count;
  }

  /**
   * The dictionary ids of a page's values, each checked against the dictionary's size, in the first
   * {@code present} places of the thread's array of ids, which every page it decodes reuses.
   */
  static int[] ids(byte[] page, int position, int end, int present, Dictionary dictionary, ArrowChunk chunk,
      Buffers buffers) {
    if (dictionary == null) {
      throw new Unsupported("a dictionary-encoded page without a dictionary in " + chunk.file);
    }
    if (buffers.ids == null || buffers.ids.length < present + 1) {
      buffers.ids = new int[present + 1];
    }
    int[] ids = buffers.ids;
    ids[present] = 0; // read, never used, by the loops that look up a value for a null too
    if (present == 0) {
      return ids;
    }
    int width = page[position] & 0xFF;
    if (width > 32) {
      throw new IllegalStateException("Dictionary ids of " + width + " bits in column " + chunk.descriptor
          + " of " + chunk.file);
    }
    Hybrid.decode(page, position + 1, end, width, ids, present);
    int last = dictionary.size() - 1;
    int outside = 0; // negative once an id is negative or past the last
    for (int i = 0; i < present; i++) {
      outside |= ids[i] | (last - ids[i]);
    }
    if (outside < 0) {
      for (int i = 0; i < present; i++) {
        int id = ids[i];
        if (id < 0 || id > last) {
          throw new IllegalStateException("Dictionary id " + id + " out of range " + dictionary.size()
              + " in column " + chunk.descriptor + " of " + chunk.file);
        }
      }
    }
    return ids;
  }

  static void plainVariable(byte[] page, int position, int end, int count, byte[] flags, ArrowChunk chunk,
      Part part) {
    part.room(end - position + ArrowColumnPages.SLACK); // a page's values take fewer bytes than the page
    byte[] out = part.bytes;
    int[] ends = part.ends;
    int row = part.rows;
    int length = part.length;
    for (int i = 0; i < count; i++) {
      if (flags == null || flags[row + i] != 0) {
        int n = valueLength(page, position, end, chunk);
        copy(page, position + 4, out, length, n);
        position += 4 + n;
        length += n;
      }
      ends[row + i] = length;
    }
    part.length = length;
  }

  /**
   * Writes dictionary-encoded strings or binaries, each copied from the dictionary by its id, after
   * making room for all of the page's at once (their lengths summed first) and, when the part must grow,
   * for as many bytes per row in the rest of the part.
   */
  static void dictionaryVariable(int[] ids, int count, int present, byte[] flags, Dictionary dictionary,
      Part part) {
    byte[] values = dictionary.bytes();
    int[] starts = dictionary.starts();
    long total = 0;
    for (int i = 0; i < present; i++) {
      total += starts[ids[i] + 1] - starts[ids[i]];
    }
    if (total > Integer.MAX_VALUE - 2L * ArrowColumnPages.SLACK) {
      throw new Unsupported("more than 2 GB of values in one part");
    }
    if (part.length + total + ArrowColumnPages.SLACK > part.bytes.length) {
      // the part grows once to this page's bytes per row times its rows left, rather than doubling page by page
      long projected = count == 0 ? 0 : (long) ((double) total / count * (part.capacity - part.rows - count));
      long wanted = Math.min(total + Math.max(0, projected), Integer.MAX_VALUE / 2 - part.length); // a guess: capped
      part.room((int) Math.max(total, wanted) + ArrowColumnPages.SLACK);
    }
    byte[] out = part.bytes;
    int[] ends = part.ends;
    int row = part.rows;
    int length = part.length;
    int next = 0;
    for (int i = 0; i < count; i++) {
      if (flags == null || flags[row + i] != 0) {
        int id = ids[next++];
        int n = starts[id + 1] - starts[id];
        copy(values, starts[id], out, length, n);
        length += n;
      }
      ends[row + i] = length;
    }
    part.length = length;
  }

  /** Decodes plain booleans, one bit each, into the part's bytes, one per row (0 for a null). */
  static void plainBooleans(byte[] page, int position, int end, int count, int present, byte[] flags,
      ArrowChunk chunk, Part part) {
    if (position + (present + 7L) / 8 > end) {
      throw new IllegalStateException("A page of column " + chunk.descriptor + " of " + chunk.file + " holds "
          + (end - position) + " bytes for " + present + " booleans");
    }
    byte[] out = part.bytes;
    for (int i = 0, bit = 0; i < count; i++) {
      boolean value = flags == null || flags[part.rows + i] != 0;
      out[part.rows + i] = value ? (byte) (page[position + (bit >>> 3)] >>> (bit & 7) & 1) : 0;
      bit += value ? 1 : 0;
    }
  }

  /**
   * Copies a value: one of 16 bytes or fewer (most strings) as two 8-byte words, which may write up
   * to {@link #ArrowColumnPages.SLACK} bytes past it (the next value overwrites them), and read past it when the
   * source has room; anything longer as an array copy.
   */
  static void copy(byte[] from, int at, byte[] to, int into, int n) {
    if (n <= 16 && at + 16 <= from.length) {
      ArrowColumnPages.LONG.set(to, into, (long) ArrowColumnPages.LONG.get(from, at));
      ArrowColumnPages.LONG.set(to, into + 8, (long) ArrowColumnPages.LONG.get(from, at + 8));
    } else {
      System.arraycopy(from, at, to, into, n);
    }
  }

  static int valueLength(byte[] page, int position, int end, ArrowChunk chunk) {
    if (position + 4 > end) {
      throw new IllegalStateException("A page of column " + chunk.descriptor + " of " + chunk.file
          + " ends inside a value");
    }
    int n = (int) ArrowColumnPages.INT.get(page, position);
    if (n < 0 || position + 4 + n > end) {
      throw new IllegalStateException("A page of column " + chunk.descriptor + " of " + chunk.file
          + " holds a value of " + n + " bytes past its end");
    }
    return n;
  }

  /**
   * The data page whose compressed bytes are {@code length} bytes at {@code at} in {@code file},
   * decompressed into the first {@code size} bytes of the thread's page buffer, which every page it
   * decodes reuses (a page is decoded before the next is decompressed).
   */
  static byte[] decompress(ArrowChunk chunk, byte[] file, int at, int length, int size, Buffers buffers)
      throws IOException {
    if (chunk.codec != CompressionCodecName.ZSTD) {
      return decompress(chunk, file, at, length, size);
    }
    if (buffers.page == null || buffers.page.length < size + ArrowColumnPages.SLACK) {
      buffers.page = new byte[size + size / 4 + ArrowColumnPages.SLACK];
    }
    if (!ParquetCodecs.ZstdPages.decompressInto(file, at, length, buffers.page, size)) {
      return decompress(chunk, file, at, length, size);
    }
    return buffers.page;
  }

  /** The page whose compressed bytes are {@code length} bytes at {@code at} in {@code file}, decompressed. */
  static byte[] decompress(ArrowChunk chunk, byte[] file, int at, int length, int size) throws IOException {
    if (chunk.codec == CompressionCodecName.UNCOMPRESSED) {
      return Arrays.copyOfRange(file, at, at + length);
    }
    ByteBuffer out = ParquetRowCursor.OPTIONS.getCodecFactory().getDecompressor(chunk.codec)
        .decompress(BytesInput.from(file, at, length), size).toByteBuffer();
    if (out.hasArray() && out.arrayOffset() == 0 && out.position() == 0 && out.remaining() == out.array().length) {
      return out.array();
    }
    byte[] copy = new byte[out.remaining()];
    out.get(copy);
    return copy;
  }

}
