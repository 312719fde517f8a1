package dev.transforms.singlenode.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.io.LocalInputFile;
import org.apache.iceberg.types.Types;
import dev.transforms.singlenode.internal.plan.WrittenFileCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copying the pages of a Parquet file that hold no dropped row, and re-encoding the others: the same
 * rows as a writer of the kept rows writes, with the same footer metrics and a page index, across row
 * groups, codecs, plain and dictionary pages, booleans and nulls, files with and without a page index,
 * columns renamed or added since; and nothing written where it does not apply.
 */
class PageCopyRewriteTest {

  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "flag", Types.BooleanType.get()),
      Types.NestedField.optional(3, "name", Types.StringType.get()),
      Types.NestedField.optional(4, "amount", Types.DecimalType.of(9, 2)),
      Types.NestedField.optional(5, "ratio", Types.FloatType.get()),
      Types.NestedField.optional(6, "code", Types.IntegerType.get()),
      Types.NestedField.optional(7, "constant", Types.StringType.get()));

  private static final int ROWS = 5_000;

  @TempDir Path dir;

  private static Record row(long id) {
    GenericRecord record = GenericRecord.create(SCHEMA);
    boolean nulls = id % 11 == 4;
    record.setField("id", id);
    record.setField("flag", nulls ? null : id % 3 == 0);
    // a few values repeated (dictionary pages) and, past 2,500, unique strings (plain pages once the
    // dictionary is full) of over 64 bytes, which the column index may truncate: that chunk's pages are
    // all re-encoded
    record.setField("name", id % 7 == 0 ? null : id < 2_500 ? "group " + (id % 20) : "unique name " + id + "-".repeat(60));
    record.setField("amount", nulls ? null : BigDecimal.valueOf(id * 13 - 30_000, 2));
    record.setField("ratio", nulls ? null : (float) (id % 97) / 3);
    record.setField("code", (int) (ROWS - id) % 500);
    record.setField("constant", id % 13 == 0 ? null : "same"); // a dictionary of one value: ids of 0 bits
    return record;
  }

  /** Writes rows with Iceberg's Parquet writer: pages of 100 rows, small row groups. */
  private Path write(String name, List<Record> rows, String codec) throws IOException {
    Path file = dir.resolve(name + ".parquet");
    try (FileAppender<Record> appender = Parquet.write(org.apache.iceberg.Files.localOutput(file.toFile()))
        .schema(SCHEMA).createWriterFunc(type -> GenericParquetWriter.create(SCHEMA, type))
        .set("write.parquet.page-row-limit", "100").set("write.parquet.row-group-size-bytes", "30000")
        .set("write.parquet.dict-size-bytes", "4096").set("write.parquet.compression-codec", codec).build()) {
      appender.addAll(rows);
    }
    return file;
  }

  private static List<Record> read(Path file) throws IOException {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = Parquet.read(org.apache.iceberg.Files.localInput(file.toFile()))
        .project(SCHEMA).createReaderFunc(type -> GenericParquetReaders.buildReader(SCHEMA, type)).build()) {
      records.forEach(r -> rows.add(r.copy()));
    }
    return rows;
  }

  private static Metrics metrics(Path file) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      return ParquetUtil.footerMetrics(reader.getFooter(), java.util.stream.Stream.empty(), MetricsConfig.getDefault());
    }
  }

  private void rewritesLikeAWriterOfTheKeptRows(String codec, long[] dropped) throws IOException {
    rewritesLikeAWriterOfTheKeptRows(codec, dropped, false);
  }

  private void rewritesLikeAWriterOfTheKeptRows(String codec, long[] dropped, boolean noPageIndex)
      throws IOException {
    List<Record> all = LongStream.range(0, ROWS).mapToObj(PageCopyRewriteTest::row).toList();
    Path source = write("source-" + codec, all, codec);
    if (noPageIndex) {
      source = withoutPageIndex(source);
    }
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(source))) {
      assertThat(reader.getRowGroups()).as("the source has several row groups").hasSizeGreaterThan(1);
    }
    List<Record> kept = new ArrayList<>();
    for (Record r : all) {
      if (Arrays.binarySearch(dropped, (Long) r.getField("id")) < 0) {
        kept.add(r);
      }
    }
    Path target = dir.resolve("copied-" + codec + ".parquet");

    Optional<PageCopyRewrite.Copied> written = copy(source, target, dropped, SCHEMA);

    assertThat(written).map(PageCopyRewrite.Copied::rows).hasValue((long) kept.size());
    assertThat(read(target)).isEqualTo(kept);
    Metrics copied = metrics(target);
    Metrics reference = metrics(write("reference-" + codec, kept, codec));
    assertThat(copied.recordCount()).isEqualTo(reference.recordCount());
    assertThat(copied.valueCounts()).isEqualTo(reference.valueCounts());
    assertThat(copied.nullValueCounts()).isEqualTo(reference.nullValueCounts());
    assertThat(copied.lowerBounds()).isEqualTo(reference.lowerBounds());
    assertThat(copied.upperBounds()).isEqualTo(reference.upperBounds());
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(target))) {
      for (var group : reader.getRowGroups()) {
        for (var chunk : group.getColumns()) {
          assertThat(reader.readOffsetIndex(chunk)).as("the offset index of %s", chunk.getPath()).isNotNull();
        }
      }
    }
  }

  /**
   * A copy of a Parquet file whose footer points to no page index, as pyarrow and DuckDB write files
   * (and without statistics in its page headers, which Iceberg's writer leaves out).
   */
  private Path withoutPageIndex(Path file) throws IOException {
    Path stripped = dir.resolve("no-index-" + file.getFileName());
    Files.copy(file, stripped);
    WrittenFileCheck.stripPageIndex(stripped);
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(stripped))) {
      var chunk = reader.getRowGroups().get(0).getColumns().get(0);
      assertThat(reader.readOffsetIndex(chunk)).as("the copy's offset index").isNull();
      assertThat(reader.readColumnIndex(chunk)).as("the copy's column index").isNull();
    }
    return stripped;
  }

  @Test
  void aRunOfRowsIsLeftOutAndTheOtherPagesAreCopied() throws IOException {
    // the first and last rows too, so that the extremes of every column come from re-encoded pages
    long[] dropped = LongStream.concat(LongStream.of(0, 1, ROWS - 1), LongStream.range(1_950, 2_060)).sorted().toArray();
    rewritesLikeAWriterOfTheKeptRows("zstd", dropped);
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"uncompressed", "snappy", "gzip", "zstd"})
  void everyPageReencodedGivesTheSameRowsInEveryCodec(String codec) throws IOException {
    long[] dropped = LongStream.range(0, ROWS).filter(i -> i % 37 == 5 || i % 41 == 0).toArray();
    rewritesLikeAWriterOfTheKeptRows(codec, dropped);
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(dir.resolve("copied-" + codec
        + ".parquet")))) {
      assertThat(reader.getRowGroups().get(0).getColumns()).as("the copy keeps the file's codec")
          .allSatisfy(chunk -> assertThat(chunk.getCodec().name()).isEqualToIgnoringCase(codec));
    }
  }

  @Test
  void aRunOfRowsIsLeftOutOfASnappyFile() throws IOException {
    rewritesLikeAWriterOfTheKeptRows("snappy", LongStream.range(1_950, 2_060).toArray());
  }

  @Test
  void aFileWithoutAPageIndexIsCopiedByItsPageHeadersAndGetsOne() throws IOException {
    long[] dropped = LongStream.concat(LongStream.of(0, 1, ROWS - 1), LongStream.range(1_950, 2_060)).sorted().toArray();
    rewritesLikeAWriterOfTheKeptRows("zstd", dropped, true);
  }

  @Test
  void aColumnRenamedOrAddedSinceTheFileWasWrittenKeepsTheFilesColumns() throws IOException {
    List<Record> all = LongStream.range(0, ROWS).mapToObj(PageCopyRewriteTest::row).toList();
    Path source = write("evolved", all, "zstd");
    List<Types.NestedField> evolved = new ArrayList<>(SCHEMA.columns());
    evolved.set(2, Types.NestedField.optional(3, "title", Types.StringType.get()));
    evolved.add(Types.NestedField.optional(8, "note", Types.StringType.get()));
    Path target = dir.resolve("evolved-copy.parquet");

    assertThat(copy(source, target, new long[] {7, 8}, new Schema(evolved)))
        .map(PageCopyRewrite.Copied::rows).hasValue(ROWS - 2L);

    List<Record> kept = new ArrayList<>(all);
    kept.remove(8);
    kept.remove(7);
    assertThat(read(target)).isEqualTo(kept);
  }

  @Test
  void pagesWhoseEveryRowIsLeftOutAreNotWrittenAndTheirNeighboursAreCut() throws IOException {
    // A key-range delete: a long run inside a row group drops whole pages (skipped without decompressing
    // them) and cuts the pages at both of its ends.
    rewritesLikeAWriterOfTheKeptRows("zstd", LongStream.range(2_137, 3_911).toArray());
    rewritesLikeAWriterOfTheKeptRows("gzip", LongStream.range(2_137, 3_911).toArray(), true);
  }

  @Test
  void aWholeRowGroupLeftOutIsNotWritten() throws IOException {
    long[] dropped = LongStream.range(0, 2_000).toArray();
    rewritesLikeAWriterOfTheKeptRows("zstd", dropped);
  }

  @Test
  void nothingIsWrittenWhereItDoesNotApply() throws IOException {
    List<Record> all = LongStream.range(0, ROWS).mapToObj(PageCopyRewriteTest::row).toList();
    Path source = write("source", all, "zstd");
    Path target = dir.resolve("never.parquet");

    Schema dropped = new Schema(SCHEMA.columns().subList(0, 6));
    assertThat(copy(source, target, new long[] {7}, dropped))
        .as("a column of the file the table no longer has").isEmpty();
    assertThat(Files.exists(target)).isFalse();
  }

  /** The page copy of a local file into a local file, as the rewrite planner runs it on any file. */
  private static Optional<PageCopyRewrite.Copied> copy(Path source, Path target, long[] dropped, Schema schema)
      throws IOException {
    try (FileBytes bytes = FileBytes.local(source)) {
      return PageCopyRewrite.rewrite(bytes, org.apache.iceberg.Files.localOutput(target.toFile()), dropped, schema, 3);
    }
  }
}
