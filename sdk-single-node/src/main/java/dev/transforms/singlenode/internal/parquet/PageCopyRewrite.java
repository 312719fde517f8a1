package dev.transforms.singlenode.internal.parquet;

import dev.transforms.singlenode.internal.plan.RewriteRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoubleConsumer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DoubleFieldMetrics;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.FloatFieldMetrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.column.Encoding;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageType;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.iceberg.shaded.org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.iceberg.shaded.org.apache.parquet.schema.MessageType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.Type;

/**
 * Copy-on-write of a Parquet data file that copies the compressed pages holding no dropped row as they
 * are, and decodes, filters and re-encodes only the pages that hold one, with the column's own
 * encoding and dictionary. A delete of a run of rows touches one or two pages of each column (Iceberg's
 * writer makes pages of at most 20,000 rows), so the file is rewritten for little more than the cost of
 * copying its bytes: a 1M-row file minus a run of 1% of its rows in 84-167 ms where decoding and
 * re-encoding it takes 360-630 ms ({@code RewriteBenchmark} in the benchmarks module). Pure Java: it
 * needs neither DuckDB nor Arrow C++.
 *
 * <p>The pages are found by walking each column chunk's page headers ({@link PageHeaders#of}), so files
 * without an offset index (pyarrow's, so PyIceberg's, and DuckDB's) are copied too. The new file has the
 * old one's schema (names and types as written; Iceberg reads its columns by field id), field ids, row
 * groups (minus rows), dictionaries and key-value metadata, and a page index. Page statistics come from
 * the old file's column index where it holds exact ones, otherwise from the decoded values of each page
 * (which is then still copied as it is); Iceberg's NaN counts and float bounds from the values of every
 * float and double page. So the footer holds what a writer of the kept rows would have computed; the
 * dictionary may still hold values no kept row uses, which readers do not see.
 *
 * <p>It applies only where that holds (otherwise {@link #rewrite} answers empty and writes nothing):
 * flat columns of primitive types, each with a field id of the table's; data pages of format version 1
 * in plain or dictionary encoding with run-length encoded levels; zstd, snappy, gzip or no compression
 * ({@link PageCodecs}; each chunk keeps its codec, so the new file keeps the old one's); no encryption.
 * The file is read and written through the table's {@code FileIO}: on object storage it is fetched in
 * a few ranged requests at once ({@link FileBytes}) and written as one stream. However many pages hold a dropped row: re-encoding a page keeps its dictionary ids or
 * plain values and needs no record per row, so even every page re-encoded (an upsert spread over the
 * file) takes about a third of the time DuckDB took to decode and re-encode the file on the benchmark's
 * 7-column shape.
 */
public final class PageCopyRewrite {

  /** The encodings of values whose pages can be decoded and re-encoded here. */
  private static final Set<Encoding> COPIED_ENCODINGS = EnumSet.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY,
      Encoding.RLE_DICTIONARY);

  /** Parquet's default column index truncation: a binary bound this long may have been cut short. */
  private static final int INDEX_TRUNCATE_LENGTH = 64;

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PageCopyRewrite.class);

  /**
   * The JVM system property that, when {@code false}, keeps rewrites from copying pages:
   * {@code -Dtransforms.page-copy=false}.
   */
  public static final String SWITCH = "transforms.page-copy";

  private PageCopyRewrite() {}

  /** Why the page copy does not rewrite the table's files, or empty when it does; opens no file. */
  static Optional<String> declines(RewriteRequest request) {
    if ("false".equalsIgnoreCase(System.getProperty(SWITCH, "true").strip())) {
      return Optional.of("turned off (-D" + SWITCH + "=false)");
    } else if (WriterSettings.zstdLevel(request.table().properties()).isEmpty()) {
      return Optional.of("the table's zstd level is not a number");
    }
    return Optional.empty();
  }

  /**
   * Writes the file's rows except those at {@code leftOut} into {@code target}, a new file of the table;
   * empty when the file turns out to hold what the page copy does not rewrite (what it wrote is the
   * caller's to delete).
   */
  public static Optional<DataFile> rewrite(RewriteRequest request, long[] leftOut, OutputFile target) {
    try (FileBytes source = FileBytes.open(request.table().io(), request.source().location(),
        request.source().size())) {
      return rewrite(request, leftOut, target, source);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open " + request.source().location(), e);
    }
  }

  /**
   * Writes the file's rows except those at {@code leftOut} into {@code target}, reading the file through
   * bytes already open (a reader of its rows fetched some of them); as {@link #rewrite(RewriteRequest, long[],
   * OutputFile)} otherwise.
   *
   * @param source the file's bytes, left open
   */
  public static Optional<DataFile> rewrite(RewriteRequest request, long[] leftOut, OutputFile target,
      FileBytes source) {
    Map<String, String> properties = request.table().properties();
    try {
      source.willRead(List.of(new long[] {0, source.length()})); // nearly every byte is copied
      Optional<Copied> copied = rewrite(source, target, leftOut, request.schema(),
          WriterSettings.zstdLevel(properties).getAsInt());
      if (copied.isEmpty()) {
        return Optional.empty();
      }
      DataFile written = WrittenFile.dataFile(request.table(), request.spec(), request.partition(),
          target.location(), copied.get().footer(), copied.get().length(), copied.get().floatMetrics().stream());
      if (written.recordCount() != copied.get().rows()) {
        throw new IllegalStateException("The page copy of " + request.source() + " holds " + written.recordCount()
            + " rows, " + copied.get().rows() + " were kept");
      }
      return Optional.of(written);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot copy the pages of " + request.source().location() + " into "
          + target.location(), e);
    }
  }

  /**
   * What a page copy wrote.
   *
   * @param floatMetrics the metrics of the float and double columns that Parquet's footer lacks (NaN
   *     counts, bounds without NaN), counted on the values kept
   * @param footer the new file's footer
   * @param length the new file's length in bytes
   */
  public record Copied(long rows, List<FieldMetrics<?>> floatMetrics, ParquetMetadata footer, long length) {}

  /**
   * Writes the rows of {@code source} except those at {@code positions} into {@code target}, copying the
   * pages without a dropped row. The file keeps its own schema (column names and types as written: a
   * column renamed or widened since reads the same by its field id; one added since is missing, as in
   * the old file).
   *
   * @param source the file to copy
   * @param target the new file, which must not exist
   * @param positions the positions to leave out, sorted, each less than the file's row count
   * @param schema the table's schema, which must hold every column of the file by field id
   * @param zstdLevel the level re-encoded zstd pages are compressed at
   * @return what was written; empty, with nothing written, where this rewrite does not apply
   * @throws IOException if a file cannot be read or written; the target may then exist
   */
  public static Optional<Copied> rewrite(FileBytes source, OutputFile target, long[] positions, Schema schema,
      int zstdLevel) throws IOException {
    long[] dropped = Arrays.stream(positions).distinct().toArray(); // sorted already
    FileBytes file = source;
    try (ParquetFileReader reader = ParquetFileReader.open(source.parquetFile())) {
      ParquetMetadata footer = reader.getFooter();
      MessageType fileSchema = footer.getFileMetaData().getSchema();
      Optional<String> columns = otherColumns(fileSchema, schema);
      if (columns.isPresent()) {
        return declined(source, columns.get());
      }
      List<BlockMetaData> groups = reader.getRowGroups();
      if (groups.isEmpty()) {
        return declined(source, "it has no row group");
      }
      List<List<List<PageHeaders.Page>>> pages = new ArrayList<>();
      ColumnIndex[][] indexes = new ColumnIndex[groups.size()][];
      long firstRow = 0;
      for (int g = 0; g < groups.size(); g++) {
        BlockMetaData group = groups.get(g);
        List<ColumnChunkMetaData> chunks = group.getColumns();
        indexes[g] = new ColumnIndex[chunks.size()];
        pages.add(new ArrayList<>());
        for (int c = 0; c < chunks.size(); c++) {
          ColumnChunkMetaData chunk = chunks.get(c);
          if (chunk.isEncrypted() || !PageCodecs.CODECS.contains(chunk.getCodec())) {
            return declined(source, "column " + chunk.getPath() + " is encrypted, or in " + chunk.getCodec());
          }
          List<PageHeaders.Page> chunkPages = PageHeaders.of(file, chunk);
          Optional<String> unread = unreadPages(chunkPages, group.getRowCount(),
              fileSchema.getColumnDescription(chunk.getPath().toArray()).getMaxDefinitionLevel() > 0);
          if (unread.isPresent()) {
            return declined(source, "column " + chunk.getPath() + " has " + unread.get());
          }
          pages.get(g).add(chunkPages);
          int count = (int) chunkPages.stream().filter(p -> p.header().getType() == PageType.DATA_PAGE).count();
          ColumnIndex index = reader.readColumnIndex(chunk);
          // without exact statistics of every page (none written, or Parquet kept none for a float column
          // that holds NaN, or binary bounds maybe truncated), a copied page's values are decoded for them
          indexes[g][c] = index == null || index.getNullCounts() == null || index.getNullPages().size() != count
              || mayBeTruncated(chunk, index) ? null : index;
        }
        firstRow += group.getRowCount();
      }
      return Optional.of(write(file, footer, groups, pages, indexes, target, dropped, zstdLevel,
          firstRow - countIn(dropped, 0, firstRow - 1)));
    }
  }

  private static Optional<Copied> declined(FileBytes source, String why) {
    LOG.debug("Rewriting {} by decoding it: {}", source, why);
    return Optional.empty();
  }

  /**
   * Why the file's columns are not ones this copy writes, or empty: each must be flat and primitive,
   * with a field id of the table's schema.
   */
  private static Optional<String> otherColumns(MessageType fileSchema, Schema schema) {
    for (Type field : fileSchema.getFields()) {
      if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
        return Optional.of("column " + field.getName() + " is nested or repeated");
      } else if (field.getId() == null || schema.findField(field.getId().intValue()) == null) {
        return Optional.of("column " + field.getName() + " has no field id of the table's");
      }
    }
    return Optional.empty();
  }

  /**
   * What the chunk holds that this copy does not write, or empty: data pages of format version 1 in
   * plain or dictionary encoding (levels run-length encoded), as many rows as the row group.
   */
  private static Optional<String> unreadPages(List<PageHeaders.Page> pages, long groupRows, boolean optional) {
    long rows = 0;
    for (PageHeaders.Page page : pages) {
      PageType kind = page.header().getType();
      if (kind == PageType.DATA_PAGE_V2) {
        return Optional.of("data pages of format version 2");
      } else if (kind == PageType.DATA_PAGE) {
        var data = page.header().getData_page_header();
        if (!COPIED_ENCODINGS.contains(Encoding.valueOf(data.getEncoding().name()))
            || (optional && data.getDefinition_level_encoding()
                != org.apache.iceberg.shaded.org.apache.parquet.format.Encoding.RLE)) {
          return Optional.of("values in " + data.getEncoding() + ", levels in " + data.getDefinition_level_encoding());
        }
        rows += page.rows();
      }
    }
    return rows == groupRows ? Optional.empty() : Optional.of(rows + " rows in its pages, " + groupRows + " in its row group");
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

  /** Writes the new file; returns what it wrote, with the metrics of its float and double columns. */
  private static Copied write(FileBytes file, ParquetMetadata footer, List<BlockMetaData> groups,
      List<List<List<PageHeaders.Page>>> pages, ColumnIndex[][] indexes, OutputFile target, long[] dropped,
      int zstdLevel, long keptInAll) throws IOException {
    MessageType fileSchema = footer.getFileMetaData().getSchema();
    List<FloatFieldMetrics.Builder> floats = new ArrayList<>();
    List<DoubleFieldMetrics.Builder> doubles = new ArrayList<>();
    Map<Integer, DoubleConsumer> floatValues = new HashMap<>();
    for (Type field : fileSchema.getFields()) {
      int id = field.getId().intValue();
      PrimitiveType.PrimitiveTypeName physical = field.asPrimitiveType().getPrimitiveTypeName();
      if (physical == PrimitiveType.PrimitiveTypeName.FLOAT) {
        FloatFieldMetrics.Builder builder = new FloatFieldMetrics.Builder(id);
        floats.add(builder);
        floatValues.put(id, value -> builder.addValue((float) value));
      } else if (physical == PrimitiveType.PrimitiveTypeName.DOUBLE) {
        DoubleFieldMetrics.Builder builder = new DoubleFieldMetrics.Builder(id);
        doubles.add(builder);
        floatValues.put(id, builder::addValue);
      }
    }
    IcebergParquetOutput output = new IcebergParquetOutput(target);
    ParquetFileWriter writer = new ParquetFileWriter(output, fileSchema,
        ParquetFileWriter.Mode.CREATE, Math.max(1, groups.get(0).getTotalByteSize()), 0,
        INDEX_TRUNCATE_LENGTH, Integer.MAX_VALUE, false);
    long keptRows = 0;
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
            int id = fileSchema.getType(chunks.get(c).getPath().toArray()).getId().intValue();
            new ChunkCopy(file, descriptor, chunks.get(c).getCodec(), pages.get(g).get(c), indexes[g][c], firstRow,
                dropped, zstdLevel, floatValues.get(id)).copyInto(writer, kept);
          }
          writer.endBlock();
          keptRows += kept;
        }
        firstRow += rows;
      }
      writer.end(footer.getFileMetaData().getKeyValueMetaData());
    } catch (IOException | RuntimeException | Error e) {
      writer.abort(); // closes the file, which the caller deletes
      throw e;
    }
    List<FieldMetrics<?>> metrics = new ArrayList<>();
    for (FloatFieldMetrics.Builder builder : floats) {
      metrics.add(withNulls(builder.build(), keptRows));
    }
    for (DoubleFieldMetrics.Builder builder : doubles) {
      metrics.add(withNulls(builder.build(), keptRows));
    }
    return new Copied(keptInAll, metrics, writer.getFooter(), output.length());
  }

  /** A float column's metrics, with every row counted as a value (nulls too, as Iceberg's writer counts). */
  private static <T> FieldMetrics<T> withNulls(FieldMetrics<T> values, long rows) {
    return new FieldMetrics<>(values.id(), rows, rows - values.valueCount(), values.nanValueCount(),
        values.lowerBound(), values.upperBound());
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
