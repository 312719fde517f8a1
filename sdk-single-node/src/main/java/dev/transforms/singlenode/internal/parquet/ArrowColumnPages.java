package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.column.Encoding;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageHeader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.iceberg.shaded.org.apache.parquet.schema.MessageType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.Type;
import org.apache.iceberg.types.Types;

/**
 * Decodes one column of local Parquet files into one Arrow vector, its pages split between threads.
 *
 * <p>Iceberg's writers make row groups of 128 MB, so a file of a million rows is often one row
 * group, and a reader that decodes a column chunk on one thread (Arrow C++'s, DuckDB's) takes as
 * long as its heaviest column, often a string column, however many cores there are. A column's pages
 * are independent but for the chunk's dictionary, and their headers say where each one starts:
 * this reader cuts a column's pages into {@linkplain #units units} that any thread may decode. A read
 * {@linkplain #allocate allocates} the column's vector, {@linkplain #decode decodes} every unit into a
 * {@link Part} (fixed-width values straight into the vector), {@linkplain #prepare prepares} the
 * vector for the strings, {@linkplain #copy copies} each part's strings into it, and
 * {@linkplain #finish finishes} it with the validity of every row.
 *
 * <p>It reads flat columns (optional or required, not repeated) of strings, binary, ints, longs,
 * floats, doubles, dates, timestamps in microseconds and decimals stored as ints or longs, in data
 * pages of format 1 or 2 with plain or dictionary encoding, compressed with zstd, snappy, gzip or not
 * at all: what Iceberg's Java writer, PyIceberg and DuckDB write. {@link #plan} leaves out any other
 * column, and the caller reads it another way; a page found at decoding time to be otherwise throws
 * {@link Unsupported}, which the caller likewise treats as "read another way". The vectors are those
 * of the engine's Arrow types ({@code ArrowSchemas.toArrow}); a column whose file type differs from
 * what the table's type is written as (an int column later promoted to long, say) is left out.
 */
public final class ArrowColumnPages {

  /**
   * A chunk of at least twice this many rows is cut into units of pages of about this many rows (a
   * page or more each): a unit's work goes with its rows more than with its compressed bytes, since
   * a column of ascending ids, say, compresses eight to one.
   */
  private static final long UNIT_ROWS = 65_536;

  private static final Set<Encoding> READ_ENCODINGS = EnumSet.of(
      Encoding.PLAIN, Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY, Encoding.RLE, Encoding.BIT_PACKED);

  private static final Set<CompressionCodecName> READ_CODECS = EnumSet.of(
      CompressionCodecName.UNCOMPRESSED, CompressionCodecName.ZSTD, CompressionCodecName.SNAPPY,
      CompressionCodecName.GZIP);

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
   * Some pages of one chunk, next to each other in the file: {@code from} to {@code to} in the file,
   * {@code rows} rows.
   */
  private record Unit(ArrowChunk chunk, long from, long to, long rows) {}

  /**
   * Scratch arrays a thread reuses from unit to unit, so that a read does not allocate them per page:
   * the unit's bytes as read, a decompressed page, a page's dictionary ids.
   */
  public static final class Buffers {
    byte[] file = new byte[0];
    byte[] page;
    int[] ids;
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
  private final List<Unit> units;
  private final long[] firstRows; // per unit, the column's row it starts at
  private final long uncompressedBytes;
  private final long rows;

  private ArrowColumnPages(Types.NestedField column, List<Unit> units, long uncompressedBytes) {
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
      row += units.get(u).rows;
    }
    this.rows = row;
  }

  /**
   * Plans the reads of columns of the files, reading each file's footer once: a plan for each column
   * this reader can read, none for the others (a type it does not decode, the column missing from a
   * file, nested or repeated, stored as another type than the table's, or in an encoding or codec this
   * reader does not decode).
   *
   * <p>A file elsewhere than on local disk is asked for the column chunks of every column read as soon as
   * its footer is read ({@link FileBytes#willRead}), so its chunks arrive while the next footers are read
   * and the pages planned.
   *
   * @param files the Parquet files, in the order of their rows, open until the read is done
   * @param columns the columns, found in the files by their field ids
   * @return the plans, in the columns' order
   * @throws UncheckedIOException if a file's footer cannot be read
   */
  public static List<ArrowColumnPages> plan(List<FileBytes> files, List<Types.NestedField> columns) {
    List<Types.NestedField> wanted = new ArrayList<>();
    for (Types.NestedField column : columns) {
      if (column.type().isPrimitiveType()) {
        wanted.add(column);
      }
    }
    List<List<Unit>> units = new ArrayList<>();
    long[] uncompressed = new long[wanted.size()];
    boolean[] readable = new boolean[wanted.size()];
    for (int c = 0; c < wanted.size(); c++) {
      units.add(new ArrayList<>());
      readable[c] = true;
    }
    List<ParquetMetadata> footers = new ArrayList<>();
    for (FileBytes file : files) { // every footer first: the chunks of each file are asked for meanwhile
      try (ParquetFileReader reader = ParquetFileReader.open(file.parquetFile(), ParquetRowCursor.OPTIONS)) {
        ParquetMetadata footer = reader.getFooter();
        footers.add(footer);
        file.willRead(chunkRanges(footer, wanted));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the footer of " + file, e);
      }
    }
    for (int f = 0; f < files.size(); f++) {
      FileBytes file = files.get(f);
      ParquetMetadata footer = footers.get(f);
      MessageType schema = footer.getFileMetaData().getSchema();
      try {
        for (int c = 0; c < wanted.size(); c++) {
          if (readable[c]) {
            long[] bytes = {0};
            readable[c] = planFile(footer.getBlocks(), file, schema, wanted.get(c), units.get(c), bytes);
            uncompressed[c] += bytes[0];
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the page headers of " + file, e);
      }
    }
    List<ArrowColumnPages> plans = new ArrayList<>();
    for (int c = 0; c < wanted.size(); c++) {
      if (readable[c]) {
        plans.add(new ArrowColumnPages(wanted.get(c), List.copyOf(units.get(c)), uncompressed[c]));
      }
    }
    return plans;
  }

  /** The byte ranges of the column chunks of the columns read, in every row group of a file. */
  private static List<long[]> chunkRanges(ParquetMetadata footer, List<Types.NestedField> columns) {
    MessageType schema = footer.getFileMetaData().getSchema();
    List<String> names = new ArrayList<>();
    for (Types.NestedField column : columns) {
      int at = topLevelIndex(schema, column.fieldId());
      if (at >= 0) {
        names.add(schema.getType(at).getName());
      }
    }
    List<long[]> ranges = new ArrayList<>();
    for (BlockMetaData group : footer.getBlocks()) {
      for (String name : names) {
        ColumnChunkMetaData chunk = chunkOf(group, name);
        if (chunk != null) {
          ranges.add(new long[] {chunk.getStartingPos(), chunk.getStartingPos() + chunk.getTotalSize()});
        }
      }
    }
    return ranges;
  }

  /** Adds the units of a column of one file; false when this reader cannot read it. */
  private static boolean planFile(List<BlockMetaData> groups, FileBytes file, MessageType schema,
      Types.NestedField column, List<Unit> units, long[] uncompressed) throws IOException {
    int at = topLevelIndex(schema, column.fieldId());
    if (at < 0) {
      return false;
    }
    Type field = schema.getType(at);
    if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
      return false;
    }
    ArrowChunk.Kind kind = ArrowChunk.kindOf(column.type(), field.asPrimitiveType());
    if (kind == null) {
      return false;
    }
    ColumnDescriptor descriptor = schema.getColumnDescription(new String[] {field.getName()});
    for (BlockMetaData group : groups) {
      ColumnChunkMetaData chunk = chunkOf(group, field.getName());
      if (chunk == null || chunk.isEncrypted() || !READ_CODECS.contains(chunk.getCodec())
          || !READ_ENCODINGS.containsAll(chunk.getEncodings())) {
        return false;
      }
      long firstData = chunk.getFirstDataPageOffset();
      long dictionary = chunk.hasDictionaryPage() && chunk.getDictionaryPageOffset() > 0
          && chunk.getDictionaryPageOffset() < firstData ? chunk.getDictionaryPageOffset() : -1;
      uncompressed[0] += chunk.getTotalUncompressedSize();
      ArrowChunk meta = new ArrowChunk(file, descriptor, kind, chunk.getCodec(), dictionary, firstData,
          Math.max(1.0, (double) chunk.getTotalUncompressedSize() / Math.max(1, chunk.getTotalSize())));
      long start = dictionary >= 0 ? dictionary : firstData;
      long end = chunk.getStartingPos() + chunk.getTotalSize();
      if (group.getRowCount() < 2 * UNIT_ROWS) {
        units.add(new Unit(meta, start, end, group.getRowCount()));
      } else { // the pages found by their headers, offset index or not
        splitByPages(meta, PageHeaders.of(file, chunk).stream().filter(p -> p.rows() > 0).toList(), start, end,
            group.getRowCount(), units);
      }
    }
    return true;
  }

  /** Cuts a chunk's data pages into runs of about {@link #UNIT_ROWS}; the first starts with the dictionary. */
  private static void splitByPages(ArrowChunk chunk, List<PageHeaders.Page> pages, long start, long end,
      long groupRows, List<Unit> units) {
    int first = 0;
    long from = start;
    for (int p = 1; p <= pages.size(); p++) {
      long until = p == pages.size() ? end : pages.get(p).offset();
      long lastRow = p == pages.size() ? groupRows : pages.get(p).firstRow();
      if (lastRow - pages.get(first).firstRow() >= UNIT_ROWS || p == pages.size()) {
        units.add(new Unit(chunk, from, until, lastRow - pages.get(first).firstRow()));
        first = p;
        from = until;
      }
    }
  }

  private static int topLevelIndex(MessageType schema, int fieldId) {
    for (int i = 0; i < schema.getFieldCount(); i++) {
      Type.ID id = schema.getType(i).getId();
      if (id != null && id.intValue() == fieldId) {
        return i;
      }
    }
    return -1;
  }

  private static ColumnChunkMetaData chunkOf(BlockMetaData group, String name) {
    for (ColumnChunkMetaData chunk : group.getColumns()) {
      if (chunk.getPath().size() == 1 && chunk.getPath().toArray()[0].equals(name)) {
        return chunk;
      }
    }
    return null;
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
    return units.get(unit).rows;
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
    Unit u = units.get(unit);
    if (u.rows > Integer.MAX_VALUE - 16) {
      throw new Unsupported("a chunk of " + u.rows + " rows");
    }
    long valuesAt = 0;
    if (width > 0) {
      if (vector.getValueCapacity() < firstRows[unit] + u.rows) {
        throw new IllegalArgumentException("The vector of column " + column.name() + " holds "
            + vector.getValueCapacity() + " values, not " + rows);
      }
      valuesAt = vector.getDataBuffer().memoryAddress() + firstRows[unit] * width;
    }
    try {
      int length = (int) (u.to - u.from);
      if (buffers.file.length < length) {
        buffers.file = new byte[length + length / 4];
      }
      byte[] bytes = buffers.file;
      u.chunk.file.readFully(u.from, bytes, 0, length);
      // room for about the unit's uncompressed bytes, which hold its values; more when a dictionary's repeat
      Part part = new Part(u.chunk.kind, (int) u.rows,
          (int) Math.min(Integer.MAX_VALUE / 2, length * u.chunk.expansion + SLACK), valuesAt);
      PageHeaders pages = new PageHeaders(bytes, 0, length);
      ArrowChunk.Dictionary dictionary = null;
      while (part.rows < u.rows) {
        if (!pages.more()) {
          throw new Unsupported(u.chunk.file + " has fewer values than rows in column " + column.name());
        }
        PageHeader header = pages.header();
        switch (header.getType()) {
          case DICTIONARY_PAGE -> dictionary = ArrowChunk.Dictionary.of(header, bytes, pages.body(header), u.chunk);
          case DATA_PAGE -> {
            if (dictionary == null && ArrowPageDecoding.usesDictionary(header.getData_page_header().getEncoding())) {
              dictionary = u.chunk.dictionary();
            }
            ArrowPageDecoding.decodeV1(header, bytes, pages.body(header), u.chunk, dictionary, part, buffers);
          }
          case DATA_PAGE_V2 -> {
            if (dictionary == null && ArrowPageDecoding.usesDictionary(header.getData_page_header_v2().getEncoding())) {
              dictionary = u.chunk.dictionary();
            }
            ArrowPageDecoding.decodeV2(header, bytes, pages.body(header), u.chunk, dictionary, part, buffers);
          }
          default -> pages.body(header); // an index page: skipped
        }
      }
      if (part.rows != u.rows) {
        throw new Unsupported(u.chunk.file + ": pages of column " + column.name() + " hold " + part.rows
            + " rows where " + u.rows + " were expected");
      }
      return part;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read column " + column.name() + " of " + u.chunk.file, e);
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
