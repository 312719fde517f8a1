package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.Map;
import java.util.Optional;
import java.io.UncheckedIOException;
import org.apache.iceberg.DataFile;
import dev.transforms.singlenode.internal.duckdb.DuckDbFileRewrite;
import dev.transforms.singlenode.internal.duckdb.DuckDbLibrary;
import dev.transforms.singlenode.internal.plan.FileRewrite;
import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import org.apache.iceberg.Schema;
import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.column.Encoding;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.iceberg.shaded.org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.iceberg.shaded.org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.iceberg.shaded.org.apache.parquet.io.LocalOutputFile;
import org.apache.iceberg.shaded.org.apache.parquet.schema.MessageType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.Type;
import org.apache.iceberg.types.Types;

/**
 * Copy-on-write of a Parquet data file that copies the compressed pages holding no dropped row as they
 * are, and decodes, filters and re-encodes only the pages that hold one, with the column's own
 * encoding and dictionary. A delete of a run of rows touches one or two pages of each column (Iceberg's
 * writer makes pages of at most 20,000 rows), so the file is rewritten for little more than the cost of
 * copying its bytes: a 1M-row file minus a run of 1% of its rows in 84-167 ms where decoding and
 * re-encoding it takes 360-630 ms ({@code RewriteBenchmark} in the benchmarks module).
 *
 * <p>The new file has the old one's schema, field ids, row groups (minus rows), dictionaries and
 * key-value metadata. Its statistics and column indexes are built from the old file's column index
 * (exact minimum, maximum and null count of every copied page) and from the values of the re-encoded
 * pages, so the footer holds what a writer of the kept rows would have computed; the dictionary may
 * still hold values no kept row uses, which readers do not see.
 *
 * <p>It applies only where that holds (otherwise {@link #rewrite} answers empty and writes nothing):
 * flat columns of primitive types, exactly the schema's, by name and field id; data pages of format
 * version 1 in the encodings Iceberg's Java writer uses (plain, dictionary, run-length/bit-packed
 * levels); zstd or no compression, the table's; every column chunk with an offset index; no
 * encryption; and few enough pages touched ({@link #maxTouchedShare}). A chunk without a column index
 * (Parquet writes none for a float column holding NaN) or whose binary bounds there may be truncated
 * has all its pages re-encoded, which counts them as touched.
 */
public final class PageCopyRewrite implements FileRewrite {

  /** The encodings whose pages can be decoded and re-encoded here. */
  private static final Set<Encoding> SUPPORTED = EnumSet.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY,
      Encoding.RLE_DICTIONARY, Encoding.RLE, Encoding.BIT_PACKED);

  /** Parquet's default column index truncation: a binary bound this long may have been cut short. */
  private static final int INDEX_TRUNCATE_LENGTH = 64;

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PageCopyRewrite.class);

  private static volatile double maxTouchedShare = 0.5;

  /**
   * The JVM system property that, when {@code false}, keeps rewrites from copying pages:
   * {@code -Dtransforms.page-copy=false}.
   */
  public static final String SWITCH = "transforms.page-copy";

  /** The strategy, for {@code RewritePlanner}'s table. */
  public PageCopyRewrite() {}

  @Override
  public RewriteStrategy strategy() {
    return RewriteStrategy.PAGE_COPY;
  }

  @Override
  public Optional<String> declines(Request request) {
    String codec = WriterSettings.codec(request.table().properties());
    if ("false".equalsIgnoreCase(System.getProperty(SWITCH, "true").strip())) {
      return Optional.of("turned off (-D" + SWITCH + "=false)");
    } else if (!codec.equals("zstd") && !codec.equals("uncompressed")) {
      return Optional.of("the table's codec is " + codec + "; pages are copied in zstd or uncompressed");
    } else if (WriterSettings.zstdLevel(request.table().properties()).isEmpty()) {
      return Optional.of("the table's zstd level is not a number");
    }
    return Optional.empty();
  }

  @Override
  public Optional<DataFile> rewrite(Request request, long[] leftOut, String target, Path out) {
    Map<String, String> properties = request.table().properties();
    try {
      OptionalLong copied = rewrite(request.source(), out, leftOut, request.schema(), WriterSettings.codec(properties),
          WriterSettings.zstdLevel(properties).getAsInt());
      if (copied.isEmpty()) {
        return Optional.empty();
      }
      // DuckDB counts the NaNs of the metrics faster than a Java read, where the build lets it run
      boolean duckDb = request.duckDbAllowed() && DuckDbLibrary.present();
      DataFile written = WrittenFile.dataFile(request.table(), request.spec(), request.partition(), target, out,
          WrittenFile.floats(request.schema()).isEmpty() || !duckDb ? WrittenFile.floatMetrics(out, request.schema())
              : DuckDbFileRewrite.floatMetrics(out, request.schema()));
      if (written.recordCount() != copied.getAsLong()) {
        throw new IllegalStateException("The page copy of " + request.source() + " holds " + written.recordCount()
            + " rows, " + copied.getAsLong() + " were kept");
      }
      return Optional.of(written);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot copy the pages of " + request.source() + " into " + target, e);
    }
  }

  /**
   * The largest share of a file's data pages that may hold a dropped row for the pages to be copied;
   * above it re-encoding the whole file costs about as much.
   *
   * @return the share, between 0 and 1
   */
  public static double maxTouchedShare() {
    return maxTouchedShare;
  }

  /**
   * Sets {@link #maxTouchedShare()}, for tests that must re-encode many pages here.
   *
   * @param share the share, between 0 and 1
   */
  public static void maxTouchedShare(double share) {
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("A share of pages is between 0 and 1: " + share);
    }
    maxTouchedShare = share;
  }

  /**
   * Writes the rows of {@code source} except those at {@code positions} into {@code target}, copying the
   * pages without a dropped row.
   *
   * @param source the Parquet data file
   * @param target the new file, which must not exist
   * @param positions the positions to leave out, sorted, each less than the file's row count
   * @param schema the table's schema, which the file's columns must be exactly
   * @param codec the table's codec (zstd or uncompressed), which the file's must be
   * @param zstdLevel the level re-encoded zstd pages are compressed at
   * @return the rows written; empty, with nothing written, where this rewrite does not apply
   * @throws IOException if a file cannot be read or written; the target may then exist
   */
  public static OptionalLong rewrite(Path source, Path target, long[] positions, Schema schema, String codec,
      int zstdLevel) throws IOException {
    long[] dropped = Arrays.stream(positions).distinct().toArray(); // sorted already
    try (ParquetFileReader reader = ParquetFileReader.open(new BufferedLocalFile(source));
        FileChannel file = FileChannel.open(source, StandardOpenOption.READ)) {
      ParquetMetadata footer = reader.getFooter();
      MessageType fileSchema = footer.getFileMetaData().getSchema();
      if (!sameColumns(fileSchema, schema)) {
        return declined(source, "its columns are not the table's schema");
      }
      List<BlockMetaData> groups = reader.getRowGroups();
      ColumnIndex[][] indexes = new ColumnIndex[groups.size()][];
      OffsetIndex[][] offsets = new OffsetIndex[groups.size()][];
      long pages = 0;
      long touched = 0;
      long firstRow = 0;
      for (int g = 0; g < groups.size(); g++) {
        BlockMetaData group = groups.get(g);
        List<ColumnChunkMetaData> chunks = group.getColumns();
        indexes[g] = new ColumnIndex[chunks.size()];
        offsets[g] = new OffsetIndex[chunks.size()];
        for (int c = 0; c < chunks.size(); c++) {
          ColumnChunkMetaData chunk = chunks.get(c);
          if (chunk.isEncrypted() || !SUPPORTED.containsAll(chunk.getEncodings())
              || !chunk.getCodec().name().equalsIgnoreCase(codec)
              || (chunk.getCodec() != CompressionCodecName.ZSTD
                  && chunk.getCodec() != CompressionCodecName.UNCOMPRESSED)) {
            return declined(source, "column " + chunk.getPath() + " is encrypted, or in " + chunk.getEncodings()
                + " with " + chunk.getCodec() + " (the table's codec: " + codec + ")");
          }
          OffsetIndex offset = reader.readOffsetIndex(chunk);
          if (offset == null) {
            return declined(source, "column " + chunk.getPath() + " has no offset index");
          }
          ColumnIndex index = reader.readColumnIndex(chunk);
          if (index != null && (index.getNullCounts() == null
              || index.getNullPages().size() != offset.getPageCount() || mayBeTruncated(chunk, index))) {
            index = null;
          }
          // without exact statistics of every page (Parquet keeps no column index for a float column
          // that holds NaN), every page of the chunk is re-encoded, its statistics computed
          indexes[g][c] = index;
          offsets[g][c] = offset;
          for (int p = 0; p < offset.getPageCount(); p++) {
            pages++;
            long from = firstRow + offset.getFirstRowIndex(p);
            long to = firstRow + offset.getLastRowIndex(p, group.getRowCount());
            if (index == null || countIn(dropped, from, to) > 0) {
              touched++;
            }
          }
        }
        firstRow += group.getRowCount();
      }
      if (pages == 0 || touched > maxTouchedShare * pages) {
        return declined(source, touched + " of its " + pages + " pages hold a dropped row");
      }
      write(file, footer, groups, indexes, offsets, target, dropped, zstdLevel);
      return OptionalLong.of(firstRow - countIn(dropped, 0, firstRow - 1));
    }
  }

  private static OptionalLong declined(Path source, String why) {
    LOG.debug("Rewriting {} by decoding it: {}", source, why);
    return OptionalLong.empty();
  }

  /** Whether the file's columns are exactly the schema's, flat and primitive, by name and field id. */
  private static boolean sameColumns(MessageType fileSchema, Schema schema) {
    List<Type> fields = fileSchema.getFields();
    if (fields.size() != schema.columns().size()) {
      return false;
    }
    for (int i = 0; i < fields.size(); i++) {
      Type field = fields.get(i);
      Types.NestedField column = schema.columns().get(i);
      if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED) || field.getId() == null
          || field.getId().intValue() != column.fieldId() || !field.getName().equals(column.name())) {
        return false;
      }
    }
    return true;
  }

  /** Whether a binary column's index may hold bounds cut to the truncation length (not exact). */
  private static boolean mayBeTruncated(ColumnChunkMetaData chunk, ColumnIndex index) {
    PrimitiveType.PrimitiveTypeName type = chunk.getPrimitiveType().getPrimitiveTypeName();
    if (type != PrimitiveType.PrimitiveTypeName.BINARY
        && type != PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
      return false;
    }
    for (List<ByteBuffer> bounds : List.of(index.getMinValues(), index.getMaxValues())) {
      for (ByteBuffer bound : bounds) {
        if (bound.remaining() >= INDEX_TRUNCATE_LENGTH) {
          return true;
        }
      }
    }
    return false;
  }

  private static void write(FileChannel file, ParquetMetadata footer, List<BlockMetaData> groups,
      ColumnIndex[][] indexes, OffsetIndex[][] offsets, Path target, long[] dropped, int zstdLevel)
      throws IOException {
    MessageType fileSchema = footer.getFileMetaData().getSchema();
    ParquetFileWriter writer = new ParquetFileWriter(new LocalOutputFile(target), fileSchema,
        ParquetFileWriter.Mode.CREATE, Math.max(1, groups.get(0).getTotalByteSize()), 0,
        INDEX_TRUNCATE_LENGTH, Integer.MAX_VALUE, false);
    try {
      writer.start();
      long firstRow = 0;
      for (int g = 0; g < groups.size(); g++) {
        BlockMetaData group = groups.get(g);
        long rows = group.getRowCount();
        long kept = rows - countIn(dropped, firstRow, firstRow + rows - 1);
        if (kept > 0) {
          writer.startBlock(kept);
          List<ColumnChunkMetaData> chunks = group.getColumns();
          for (int c = 0; c < chunks.size(); c++) {
            ColumnDescriptor descriptor = fileSchema.getColumnDescription(chunks.get(c).getPath().toArray());
            new ChunkCopy(file, chunks.get(c), descriptor, indexes[g][c], offsets[g][c], firstRow, rows, dropped,
                zstdLevel).copyInto(writer, kept);
          }
          writer.endBlock();
        }
        firstRow += rows;
      }
      writer.end(footer.getFileMetaData().getKeyValueMetaData());
    } catch (IOException | RuntimeException | Error e) {
      writer.abort(); // closes the file, which the caller deletes
      throw e;
    }
  }

  /** How many sorted positions are within {@code [from, to]}. */
  static int countIn(long[] sorted, long from, long to) {
    if (to < from) {
      return 0;
    }
    return firstAtOrAfter(sorted, to + 1) - firstAtOrAfter(sorted, from);
  }

  static int firstAtOrAfter(long[] sorted, long value) {
    int at = Arrays.binarySearch(sorted, value);
    if (at < 0) {
      return -at - 1;
    }
    while (at > 0 && sorted[at - 1] == value) {
      at--;
    }
    return at;
  }
}
