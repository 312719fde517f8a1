package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.column.Encoding;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.iceberg.shaded.org.apache.parquet.schema.MessageType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.Type;
import org.apache.iceberg.types.Types;

/**
 * Where the page decoder's work lies: for each column read, its chunks in every file, cut into units of
 * pages that any thread may decode ({@link ArrowColumnPages}). Planning reads each file's footer once and
 * walks the page headers of large chunks (offset index or not); it leaves out every column the decoder
 * does not read, for the caller to read another way.
 */
public final class PagedColumnPlan {

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


  /**
   * Some pages of one chunk, next to each other in the file: {@code from} to {@code to} in the file,
   * {@code rows} rows.
   */
  record Unit(ArrowChunk chunk, long from, long to, long rows) {}

  private PagedColumnPlan() {}

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
}
