package dev.transforms.singlenode.internal.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.iceberg.shaded.org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.iceberg.shaded.org.apache.parquet.io.LocalInputFile;
import org.apache.iceberg.shaded.org.apache.parquet.io.api.Binary;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveComparator;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Checks every data file of a table's current snapshot against its own values, read by Iceberg's
 * generic Parquet reader: the row count, each column's value, null and NaN counts and bounds (exact
 * where nothing truncates them), and, where the file has page indexes, each page's null count and
 * bounds in the column index; that files the SDK wrote carry an offset index. A local file is read where it
 * lies; any other (object storage) is first copied whole, through the table's {@code FileIO}, to a temporary
 * file, whose size must be the one the table records. And strips a file of its page index, as pyarrow and
 * DuckDB write files.
 */
public final class WrittenFileCheck {

  private WrittenFileCheck() {}

  /**
   * Checks every data file of the table's current snapshot.
   *
   * @param table the table
   * @param what the step, for failure messages
   * @param foreign the locations of files another writer wrote, which need no page index
   */
  public static void everyDataFile(Table table, String what, java.util.Set<String> foreign) {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      tasks.forEach(task -> files.add(task.file()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (DataFile file : files) {
      String where = what + ", file " + file.location();
      Optional<Path> local = DirectScan.localPath(file.location());
      Path path = local.isPresent() ? local.get() : download(table.io(), file, where);
      try {
        check(table.schema(), file, path, !foreign.contains(file.location()), where);
      } finally {
        if (local.isEmpty()) {
          delete(path);
        }
      }
    }
  }

  /**
   * The locations of the data files of a table's current snapshot.
   *
   * @param table the table
   * @return the locations
   */
  public static java.util.Set<String> dataFiles(Table table) {
    java.util.Set<String> locations = new java.util.HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> locations.add(task.file().location()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return locations;
  }

  /** A copy of a file that is not local, read through the file IO as one stream, in a temporary file. */
  private static Path download(FileIO io, DataFile file, String what) {
    Path copy = null;
    boolean copied = false;
    try {
      copy = Files.createTempFile("written-file-check-", ".parquet");
      try (InputStream in = io.newInputFile(file.location()).newStream()) {
        Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
      }
      assertThat(Files.size(copy)).as("%s: bytes read through the file IO, against the table's record", what)
          .isEqualTo(file.fileSizeInBytes());
      copied = true;
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (copy != null && !copied) {
        delete(copy);
      }
    }
  }

  private static void delete(Path copy) {
    try {
      Files.deleteIfExists(copy);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void check(Schema schema, DataFile file, Path path, boolean pageIndex, String what) {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = Parquet.read(org.apache.iceberg.Files.localInput(path.toFile()))
        .project(schema).createReaderFunc(type -> GenericParquetReaders.buildReader(schema, type)).build()) {
      records.forEach(record -> rows.add(record.copy()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(rows).as("%s: rows read by Iceberg's generic reader", what).hasSize((int) file.recordCount());
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(path))) {
      var fileSchema = reader.getFooter().getFileMetaData().getSchema();
      for (int c = 0; c < schema.columns().size(); c++) {
        Types.NestedField column = schema.columns().get(c);
        boolean inFile = fileSchema.getFields().stream()
            .anyMatch(f -> f.getId() != null && f.getId().intValue() == column.fieldId());
        if (inFile && column.type().isPrimitiveType()) {
          checkMetrics(file, column, values(rows, c), what + ", column " + column.name());
        }
      }
      long firstRow = 0;
      for (BlockMetaData group : reader.getRowGroups()) {
        for (ColumnChunkMetaData chunk : group.getColumns()) {
          if (chunk.getPath().size() != 1) {
            continue; // nested: the metrics above cover the top-level columns only
          }
          int id = fileSchema.getType(chunk.getPath().toArray()).getId().intValue();
          int at = schema.columns().indexOf(schema.findField(id));
          OffsetIndex offsets = reader.readOffsetIndex(chunk);
          ColumnIndex index = reader.readColumnIndex(chunk);
          assertThat(offsets != null || !pageIndex).as("%s: the offset index of %s", what, chunk.getPath()).isTrue();
          if (at >= 0 && offsets != null && index != null) {
            List<Object> values = values(rows, at).subList((int) firstRow, (int) (firstRow + group.getRowCount()));
            checkPages(chunk.getPrimitiveType(), offsets, index, values, group.getRowCount(),
                what + ", column chunk " + chunk.getPath() + " at row " + firstRow);
          }
        }
        firstRow += group.getRowCount();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Object> values(List<Record> rows, int column) {
    List<Object> values = new ArrayList<>(rows.size());
    rows.forEach(row -> values.add(row.get(column)));
    return values;
  }

  private static void checkMetrics(DataFile file, Types.NestedField column, List<Object> values, String what) {
    int id = column.fieldId();
    Type type = column.type();
    long nulls = values.stream().filter(v -> v == null).count();
    long nans = values.stream().filter(WrittenFileCheck::isNaN).count();
    check(file.valueCounts(), id, (long) values.size(), what + ": value count");
    check(file.nullValueCounts(), id, nulls, what + ": null count");
    boolean floating = type.typeId() == Type.TypeID.FLOAT || type.typeId() == Type.TypeID.DOUBLE;
    if (floating) {
      assertThat(file.nanValueCounts()).as("%s: NaN counts", what).containsEntry(id, nans);
    }
    Comparator<Object> order = comparator(type);
    List<Object> ordered = values.stream().filter(v -> v != null && !isNaN(v)).map(v -> internal(v)).sorted(order)
        .toList();
    ByteBuffer lower = file.lowerBounds() == null ? null : file.lowerBounds().get(id);
    ByteBuffer upper = file.upperBounds() == null ? null : file.upperBounds().get(id);
    if (ordered.isEmpty()) {
      return;
    }
    boolean truncated = type.typeId() == Type.TypeID.STRING || type.typeId() == Type.TypeID.BINARY;
    if (lower != null) {
      Object bound = Conversions.fromByteBuffer(type, lower);
      int compared = order.compare(bound, ordered.get(0));
      assertThat(truncated ? compared <= 0 : compared == 0)
          .as("%s: lower bound %s, smallest value %s", what, bound, ordered.get(0)).isTrue();
    }
    if (upper != null) {
      Object bound = Conversions.fromByteBuffer(type, upper);
      int compared = order.compare(bound, ordered.get(ordered.size() - 1));
      assertThat(truncated ? compared >= 0 : compared == 0)
          .as("%s: upper bound %s, largest value %s", what, bound, ordered.get(ordered.size() - 1)).isTrue();
    }
  }

  private static void check(Map<Integer, Long> counts, int id, long expected, String what) {
    if (counts != null && counts.containsKey(id)) {
      assertThat(counts.get(id)).as(what).isEqualTo(expected);
    }
  }

  /** Iceberg's order of a type, with -0.0 and 0.0 equal (bounds of either are right for both). */
  @SuppressWarnings("unchecked")
  private static Comparator<Object> comparator(Type type) {
    if (type.typeId() == Type.TypeID.FLOAT || type.typeId() == Type.TypeID.DOUBLE) {
      return Comparator.comparingDouble(v -> ((Number) v).doubleValue() + 0.0);
    }
    return (Comparator<Object>) (Comparator<?>) Comparators.forType(type.asPrimitiveType());
  }

  /** A generic value as Iceberg's bounds hold it: dates in days, times and timestamps in microseconds. */
  private static Object internal(Object value) {
    return value instanceof LocalDate day ? (Object) (int) day.toEpochDay()
        : value instanceof LocalTime || value instanceof LocalDateTime || value instanceof OffsetDateTime
            ? physical(MICROS, value) : value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value;
  }

  private static final PrimitiveType MICROS = new PrimitiveType(org.apache.iceberg.shaded.org.apache.parquet.schema
      .Type.Repetition.OPTIONAL, PrimitiveType.PrimitiveTypeName.INT64, "micros");

  private static boolean isNaN(Object value) {
    return value instanceof Float f ? f.isNaN() : value instanceof Double d && d.isNaN();
  }

  /** Each page's null count, whether it is all nulls, and bounds that hold its values, in Parquet's order. */
  @SuppressWarnings("unchecked")
  private static void checkPages(PrimitiveType type, OffsetIndex offsets, ColumnIndex index, List<Object> values,
      long groupRows, String what) {
    PrimitiveComparator<Object> order = (PrimitiveComparator<Object>) type.comparator();
    assertThat(index.getNullPages()).as("%s: pages in the column index", what).hasSize(offsets.getPageCount());
    for (int p = 0; p < offsets.getPageCount(); p++) {
      List<Object> page = values.subList((int) offsets.getFirstRowIndex(p),
          (int) offsets.getLastRowIndex(p, groupRows) + 1);
      long nulls = page.stream().filter(v -> v == null).count();
      String where = what + ", page " + p;
      if (index.getNullCounts() != null) {
        assertThat(index.getNullCounts().get(p)).as("%s: null count", where).isEqualTo(nulls);
      }
      assertThat(index.getNullPages().get(p)).as("%s: all nulls", where).isEqualTo(nulls == page.size());
      if (nulls == page.size()) {
        continue;
      }
      Object min = physical(type, index.getMinValues().get(p));
      Object max = physical(type, index.getMaxValues().get(p));
      for (Object value : page) {
        if (value != null && !isNaN(value) && !isNaN(min) && !isNaN(max)) {
          Object v = physical(type, value);
          assertThat(order.compare(min, v) <= 0 && order.compare(max, v) >= 0)
              .as("%s: bounds %s and %s hold %s", where, min, max, value).isTrue();
        }
      }
    }
  }

  /** A value in the Java class of its Parquet physical type, from a column index bound or a generic value. */
  private static Object physical(PrimitiveType type, Object value) {
    ByteBuffer bound = value instanceof ByteBuffer buffer && type.getPrimitiveTypeName()
        != PrimitiveType.PrimitiveTypeName.BINARY && type.getPrimitiveTypeName()
        != PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY ? buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN)
        : null;
    return switch (type.getPrimitiveTypeName()) {
      case BOOLEAN -> bound != null ? bound.get(0) != 0 : value;
      case INT32 -> bound != null ? bound.getInt(0) : value instanceof LocalDate day ? (int) day.toEpochDay()
          : value instanceof BigDecimal decimal ? decimal.unscaledValue().intValueExact() : ((Number) value).intValue();
      case INT64 -> bound != null ? bound.getLong(0) : value instanceof LocalTime time ? time.toNanoOfDay() / 1000
          : value instanceof LocalDateTime at ? ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), at)
          : value instanceof OffsetDateTime at ? ChronoUnit.MICROS.between(OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0,
              ZoneOffset.UTC), at)
          : value instanceof BigDecimal decimal ? decimal.unscaledValue().longValueExact() : ((Number) value).longValue();
      case FLOAT -> bound != null ? bound.getFloat(0) : ((Number) value).floatValue();
      case DOUBLE -> bound != null ? bound.getDouble(0) : ((Number) value).doubleValue();
      case BINARY, FIXED_LEN_BYTE_ARRAY -> Binary.fromConstantByteArray(bytes(type, value));
      default -> throw new IllegalArgumentException("No physical value of " + type);
    };
  }

  private static byte[] bytes(PrimitiveType type, Object value) {
    if (value instanceof CharSequence text) {
      return text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    } else if (value instanceof UUID uuid) {
      return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits())
          .array();
    } else if (value instanceof byte[] bytes) {
      return bytes;
    } else if (value instanceof BigDecimal decimal) {
      byte[] unscaled = decimal.unscaledValue().toByteArray();
      byte[] fixed = new byte[type.getTypeLength()];
      java.util.Arrays.fill(fixed, decimal.signum() < 0 ? (byte) -1 : 0);
      System.arraycopy(unscaled, 0, fixed, fixed.length - unscaled.length, unscaled.length);
      return fixed;
    }
    ByteBuffer buffer = ((ByteBuffer) value).duplicate();
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }

  /**
   * Rewrites a Parquet file in place so that its footer points to no page index (the index bytes stay
   * where they are, unread), as pyarrow and DuckDB write files.
   *
   * @param file the file
   * @return its new size
   */
  public static long stripPageIndex(Path file) {
    try {
      byte[] bytes = java.nio.file.Files.readAllBytes(file);
      int footerLength = ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      int footerStart = bytes.length - 8 - footerLength;
      var footer = org.apache.iceberg.shaded.org.apache.parquet.format.Util.readFileMetaData(
          new java.io.ByteArrayInputStream(bytes, footerStart, footerLength));
      for (var group : footer.getRow_groups()) {
        for (var chunk : group.getColumns()) {
          chunk.unsetOffset_index_offset();
          chunk.unsetOffset_index_length();
          chunk.unsetColumn_index_offset();
          chunk.unsetColumn_index_length();
        }
      }
      java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
      org.apache.iceberg.shaded.org.apache.parquet.format.Util.writeFileMetaData(footer, written);
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      out.write(bytes, 0, footerStart);
      out.write(written.toByteArray());
      out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(written.size()).array());
      out.write("PAR1".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      java.nio.file.Files.write(file, out.toByteArray());
      return out.size();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
