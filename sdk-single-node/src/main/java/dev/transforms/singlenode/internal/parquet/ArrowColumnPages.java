package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageHeader;
import org.apache.iceberg.types.Types;

/**
 * Decodes one column of local Parquet files into one Arrow vector, its pages split between threads.
 *
 * <p>Iceberg's writers make row groups of 128 MB, so a file of a million rows is often one row
 * group, and a reader that decodes a column chunk on one thread (Arrow C++'s, DuckDB's) takes as
 * long as its heaviest column, often a string column, however many cores there are. A column's pages
 * are independent but for the chunk's dictionary, and their headers say where each one starts:
 * this reader cuts a column's pages into {@linkplain #units units} ({@link PagedColumnPlan}) that any
 * thread may decode. A read
 * {@linkplain #allocate allocates} the column's vector, {@linkplain #decode decodes} every unit into a
 * {@link Part} (fixed-width values straight into the vector), {@linkplain #prepare prepares} the
 * vector for the strings, {@linkplain #copy copies} each part's strings into it, and
 * {@linkplain #finish finishes} it with the validity of every row.
 *
 * <p>It reads flat columns (optional or required, not repeated) of strings, binary, ints, longs,
 * floats, doubles, dates, timestamps in microseconds and decimals stored as ints or longs, in data
 * pages of format 1 or 2 with plain or dictionary encoding, compressed with zstd, snappy, gzip or not
 * at all: what Iceberg's Java writer, PyIceberg and DuckDB write. {@link PagedColumnPlan#plan} leaves out any other
 * column, and the caller reads it another way; a page found at decoding time to be otherwise throws
 * {@link Unsupported}, which the caller likewise treats as "read another way". The vectors are those
 * of the engine's Arrow types ({@code ArrowSchemaMapping.toArrow}); a column whose file type differs from
 * what the table's type is written as (an int column later promoted to long, say) is left out.
 */
public final class ArrowColumnPages {

  static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Room kept past the values written, for {@link #copy}'s whole words. */
  static final int SLACK = 16;

  /** A page or a run of pages this reader cannot decode; the caller reads the column another way. */
  public static final class Unsupported extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unsupported(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Scratch arrays a thread reuses from unit to unit, so that a read does not allocate them per page:
   * the unit's bytes as read, a decompressed page (a dictionary page too), a page's dictionary ids.
   */
  public static final class Buffers {
    /** Each thread's, kept from read to read while the collector leaves them. */
    private static final ThreadLocal<java.lang.ref.SoftReference<Buffers>> KEPT = new ThreadLocal<>();

    byte[] file = new byte[0];
    byte[] page;
    int[] ids;
    private boolean taken; // by a read on this thread, until it gives them back

    /**
     * The calling thread's buffers, as its last read left them: a read in a fresh JVM otherwise allocates
     * and grows them anew, megabytes of new heap each, whose first touch is much of an early read's cost.
     * A read that finds them taken (a thread that starts a second read inside the first) gets its own.
     * Give them back with {@link #giveBack()} when the read's work on this thread ends.
     */
    static Buffers ofThisThread() {
      java.lang.ref.SoftReference<Buffers> kept = KEPT.get();
      Buffers buffers = kept == null ? null : kept.get();
      if (buffers == null) {
        buffers = new Buffers();
        KEPT.set(new java.lang.ref.SoftReference<>(buffers));
      } else if (buffers.taken) {
        buffers = new Buffers();
      }
      buffers.taken = true;
      return buffers;
    }

    /** Ends this read's use of the buffers: the thread's next read may take them. */
    void giveBack() {
      taken = false;
    }
  }

  /**
   * What one unit decoded: for strings and binary their bytes end to end and where each row's value
   * ends, to be laid into the vector by {@link #finish}; fixed-width values are written straight into
   * the vector, {@link #allocate}d beforehand for every row. And which rows have a value.
   */
  public static final class Part {
    final int capacity; // the unit's rows
    byte[] bytes; // variable-width values
    int length;
    final int[] ends;
    final long valuesAt; // fixed-width values: the address of the unit's first row's value
    byte[] present; // 1 for a row with a value; null for a required column
    int nulls;
    int rows;
    long firstRow; // set by prepare
    long firstByte;

    Part(ArrowChunk.Kind kind, int rows, int bytes, long valuesAt) {
      this.capacity = rows;
      this.valuesAt = valuesAt;
      this.ends = kind == ArrowChunk.Kind.VARIABLE ? new int[rows] : null;
      if (kind == ArrowChunk.Kind.VARIABLE) {
        this.bytes = new byte[Math.max(16, bytes)]; // grows as needed
      } else if (kind == ArrowChunk.Kind.BOOLEAN) {
        this.bytes = new byte[rows + 8]; // one per row, and room for eight read at once
      }
    }

    void room(int more) {
      if (length + more > bytes.length) {
        long wanted = Math.max((long) length + more, 2L * bytes.length);
        if (wanted > Integer.MAX_VALUE - 16) {
          throw new Unsupported("more than 2 GB of values in one part");
        }
        bytes = Arrays.copyOf(bytes, (int) wanted);
      }
    }
  }

  private final Types.NestedField column;
  private final int width; // of the vector's values; 0 for strings, binary and booleans
  private final boolean bits; // booleans
  private final List<PagedColumnPlan.Unit> units;
  private final long[] firstRows; // per unit, the column's row it starts at
  private final long uncompressedBytes;
  private final long rows;

  ArrowColumnPages(Types.NestedField column, List<PagedColumnPlan.Unit> units, long uncompressedBytes) {
    this.uncompressedBytes = uncompressedBytes;
    this.column = column;
    this.width = switch (column.type().typeId()) {
      case INTEGER, DATE, FLOAT -> 4;
      case LONG, DOUBLE, TIMESTAMP, TIME -> 8;
      case DECIMAL, UUID -> 16;
      case FIXED -> ((Types.FixedType) column.type()).length();
      default -> 0;
    };
    this.bits = column.type().typeId() == org.apache.iceberg.types.Type.TypeID.BOOLEAN;
    this.units = units;
    this.firstRows = new long[units.size()];
    long row = 0;
    for (int u = 0; u < units.size(); u++) {
      firstRows[u] = row;
      row += units.get(u).rows();
    }
    this.rows = row;
  }

  /** The column read. */
  public Types.NestedField column() {
    return column;
  }

  /** The units of work, each decoded by one call of {@link #decode}. */
  public int units() {
    return units.size();
  }

  /**
   * The column's bytes in the files, uncompressed: about what decoding strings or binary stages on
   * the Java heap before they are laid into the vector.
   *
   * @return the bytes
   */
  public long uncompressedBytes() {
    return uncompressedBytes;
  }

  /**
   * Whether the column's values are staged on the heap while the units are decoded (strings and
   * binary); fixed-width values go straight into the vector.
   *
   * @return whether {@link #copy} has parts to lay into the vector
   */
  public boolean staged() {
    return width == 0 && !bits;
  }

  /** The rows of a unit, a rough measure of its work. */
  public long unitRows(int unit) {
    return units.get(unit).rows();
  }

  /**
   * The column's vector, of the field's type: for fixed-width values sized for every row, which
   * {@link #decode} writes into; for strings and binary empty, filled by {@link #finish}.
   *
   * @param field the vector's field, the engine's Arrow field of the column
   * @param allocator where the vector's memory is accounted
   * @return the vector, owned by the caller
   */
  public FieldVector allocate(Field field, BufferAllocator allocator) {
    if (rows > Integer.MAX_VALUE - 1) {
      throw new Unsupported("column " + column.name() + " of " + rows + " rows");
    }
    FieldVector vector = field.createVector(allocator);
    if (width > 0 || bits) {
      try {
        int count = (int) Math.max(1, rows);
        giveBuffers(vector, allocator, count, bits ? BitVectorHelper.getValidityBufferSizeFromCount(count)
            : (long) count * width);
        if (bits) {
          vector.getDataBuffer().setZero(0, vector.getDataBuffer().capacity()); // finish sets bits
        }
      } catch (RuntimeException | Error e) {
        vector.close();
        throw e;
      }
    }
    return vector;
  }

  /**
   * Gives a vector of {@code rows} rows its buffers: a cleared validity buffer, then buffers of the
   * given sizes in the vector's order (the values; or the offsets and the values), left as the
   * allocator hands them out. Arrow's {@code allocateNew} clears every buffer, and the first touch of
   * freshly mapped memory is much of a large read's cost: on the calling thread before the decoding
   * starts, where the decoding threads write each value anyway (a null's too, as zero).
   */
  private static void giveBuffers(FieldVector vector, BufferAllocator allocator, int rows, long... sizes) {
    List<ArrowBuf> buffers = new ArrayList<>();
    try {
      ArrowBuf validity = allocator.buffer(BitVectorHelper.getValidityBufferSizeFromCount(rows));
      buffers.add(validity);
      validity.setZero(0, validity.capacity());
      for (long size : sizes) {
        buffers.add(allocator.buffer(Math.max(8, size)));
      }
      // the vector takes its own reference to each buffer; the null count given is not kept, the vector
      // counts the clear bits, which finish sets
      vector.loadFieldBuffers(new ArrowFieldNode(rows, 0), buffers);
    } finally {
      buffers.forEach(ArrowBuf::close);
    }
  }

  /**
   * Decodes one unit with a thread's scratch arrays. Safe to call from several threads at once, for
   * different units, each with its own buffers.
   *
   * @param vector the column's vector, from {@link #allocate}
   * @throws Unsupported if a page is in a form this reader does not decode
   * @throws UncheckedIOException if the file cannot be read
   */
  public Part decode(int unit, FieldVector vector, Buffers buffers) {
    PagedColumnPlan.Unit u = units.get(unit);
    if (u.rows() > Integer.MAX_VALUE - 16) {
      throw new Unsupported("a chunk of " + u.rows() + " rows");
    }
    long valuesAt = 0;
    if (width > 0) {
      if (vector.getValueCapacity() < firstRows[unit] + u.rows()) {
        throw new IllegalArgumentException("The vector of column " + column.name() + " holds "
            + vector.getValueCapacity() + " values, not " + rows);
      }
      valuesAt = vector.getDataBuffer().memoryAddress() + firstRows[unit] * width;
    }
    try {
      int length = (int) (u.to() - u.from());
      if (buffers.file.length < length) {
        buffers.file = new byte[length + length / 4];
      }
      byte[] bytes = buffers.file;
      u.chunk().file.readFully(u.from(), bytes, 0, length);
      // room for about the unit's uncompressed bytes, which hold its values; more when a dictionary's repeat
      Part part = new Part(u.chunk().kind, (int) u.rows(),
          (int) Math.min(Integer.MAX_VALUE / 2, length * u.chunk().expansion + SLACK), valuesAt);
      PageHeaders pages = new PageHeaders(bytes, 0, length);
      ArrowChunk.Dictionary dictionary = null;
      while (part.rows < u.rows()) {
        if (!pages.more()) {
          throw new Unsupported(u.chunk().file + " has fewer values than rows in column " + column.name());
        }
        PageHeader header = pages.header();
        switch (header.getType()) {
          case DICTIONARY_PAGE -> dictionary = u.chunk().dictionary(header, bytes, pages.body(header), buffers);
          case DATA_PAGE -> {
            if (dictionary == null && ArrowPageDecoding.usesDictionary(header.getData_page_header().getEncoding())) {
              dictionary = u.chunk().dictionary(buffers);
            }
            ArrowPageDecoding.decodeV1(header, bytes, pages.body(header), u.chunk(), dictionary, part, buffers);
          }
          case DATA_PAGE_V2 -> {
            if (dictionary == null && ArrowPageDecoding.usesDictionary(header.getData_page_header_v2().getEncoding())) {
              dictionary = u.chunk().dictionary(buffers);
            }
            ArrowPageDecoding.decodeV2(header, bytes, pages.body(header), u.chunk(), dictionary, part, buffers);
          }
          default -> pages.body(header); // an index page: skipped
        }
      }
      if (part.rows != u.rows()) {
        throw new Unsupported(u.chunk().file + ": pages of column " + column.name() + " hold " + part.rows
            + " rows where " + u.rows() + " were expected");
      }
      return part;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read column " + column.name() + " of " + u.chunk().file, e);
    }
  }

  /**
   * Makes room in a string or binary column's vector for every part's values, once every unit is
   * decoded, so that {@link #copy} may lay the parts into it, each from its own thread; nothing to
   * do for fixed-width values, which are in the vector already.
   *
   * @param parts every unit's part, in the units' order
   * @param vector the column's vector, from {@link #allocate}
   */
  public void prepare(List<Part> parts, FieldVector vector) {
    long bytes = 0;
    long total = 0;
    for (Part part : parts) {
      part.firstRow = total;
      part.firstByte = bytes;
      bytes += part.length;
      total += part.rows;
    }
    if (parts.size() != units.size() || total != rows || bytes > Integer.MAX_VALUE) {
      throw new Unsupported("column " + column.name() + ": " + total + " rows of " + bytes + " bytes");
    }
    if (staged()) {
      int count = (int) Math.max(1, total);
      giveBuffers(vector, vector.getAllocator(), count, 4L * (count + 1), Math.max(1, bytes));
      MemoryUtil.putInt(vector.getOffsetBuffer().memoryAddress(), 0);
    }
  }

  /**
   * Lays one part's strings or binary values and their offsets into the vector, after
   * {@link #prepare}. Safe to call from several threads at once, for different parts.
   */
  public void copy(Part part, FieldVector vector) {
    if (!staged()) {
      return;
    }
    MemoryUtil.copyToMemory(part.bytes, 0, vector.getDataBuffer().memoryAddress() + part.firstByte, part.length);
    int[] ends = part.ends;
    int base = (int) part.firstByte;
    long at = vector.getOffsetBuffer().memoryAddress() + 4L * (part.firstRow + 1);
    for (int i = 0; i < part.rows; i++) {
      MemoryUtil.putInt(at + 4L * i, base + ends[i]);
    }
  }

  /**
   * Completes the column's vector once every part is {@linkplain #copy copied}: sets which rows have
   * a value, and the count.
   *
   * @param parts every unit's part, in the units' order
   */
  public void finish(List<Part> parts, FieldVector vector) {
    long validityAt = vector.getValidityBuffer().memoryAddress();
    int row = 0;
    for (Part part : parts) {
      setValid(validityAt, row, part.rows, part.nulls == 0 ? null : part.present);
      if (bits) {
        setValid(vector.getDataBuffer().memoryAddress(), row, part.rows, part.bytes);
      }
      row += part.rows;
    }
    if (vector instanceof BaseVariableWidthVector variable) {
      variable.setLastSet(row - 1);
    }
    vector.setValueCount(row);
  }

  /** Sets the validity bits of rows {@code from} to {@code from + count}, those flagged or all. */
  private static void setValid(long validityAt, int from, int count, byte[] present) {
    int i = 0;
    while (i < count && ((from + i) & 7) != 0) {
      if (present == null || present[i] != 0) {
        setBit(validityAt, from + i);
      }
      i++;
    }
    for (; i + 8 <= count; i += 8) {
      // eight flags (bytes of 0 or 1) gathered into one byte: each lands on its own bit of the top byte
      int bits = present == null ? 0xFF : (int) (((long) LONG.get(present, i) * 0x0102040810204080L) >>> 56);
      MemoryUtil.putByte(validityAt + ((from + i) >>> 3), (byte) bits);
    }
    for (; i < count; i++) {
      if (present == null || present[i] != 0) {
        setBit(validityAt, from + i);
      }
    }
  }

  private static void setBit(long validityAt, int row) {
    long at = validityAt + (row >>> 3);
    MemoryUtil.putByte(at, (byte) (MemoryUtil.getByte(at) | (1 << (row & 7))));
  }
}
