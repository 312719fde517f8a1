package dev.transforms.singlenode;

import dev.transforms.singlenode.arrow.ArrowSchemas;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.util.Text;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The engine's own, minimal bridge between Iceberg generic records and Arrow vectors, used until the
 * Arrow IO of {@code dev.transforms.singlenode.arrow} offers a vectorized reader and a data-file
 * writer. Handles top-level primitive columns only (the types {@link ArrowSchemas} maps).
 */
final class ArrowBridge {

  private ArrowBridge() {}

  /** Reads all records into one new root; the caller owns it. */
  static VectorSchemaRoot toRoot(Schema schema, Iterable<Record> records, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(schema), allocator);
    try {
      root.allocateNew();
      int row = 0;
      for (Record record : records) {
        setRow(schema, root, row++, record);
      }
      root.setRowCount(row);
      return root;
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }

  /** Fills an existing root with up to {@code max} records from the iterator; returns the row count. */
  static int fill(Schema schema, VectorSchemaRoot root, Iterator<Record> records, int max) {
    for (FieldVector vector : root.getFieldVectors()) {
      vector.clear();
      vector.allocateNew();
    }
    int row = 0;
    while (row < max && records.hasNext()) {
      setRow(schema, root, row++, records.next());
    }
    root.setRowCount(row);
    return row;
  }

  private static void setRow(Schema schema, VectorSchemaRoot root, int row, Record record) {
    List<Types.NestedField> columns = schema.columns();
    for (int c = 0; c < columns.size(); c++) {
      set(root.getVector(c), row, columns.get(c).type(), record.getField(columns.get(c).name()));
    }
  }

  private static void set(FieldVector vector, int row, Type type, Object value) {
    if (value == null) {
      if (vector instanceof BaseFixedWidthVector fixed) {
        fixed.setNull(row);
      } else if (vector instanceof VarCharVector text) {
        text.setNull(row);
      } else if (vector instanceof VarBinaryVector bytes) {
        bytes.setNull(row);
      } else {
        throw new IllegalStateException("Cannot set null in " + vector.getField());
      }
      return;
    }
    switch (type.typeId()) {
      case BOOLEAN -> ((BitVector) vector).setSafe(row, (Boolean) value ? 1 : 0);
      case INTEGER -> ((IntVector) vector).setSafe(row, (Integer) value);
      case LONG -> ((BigIntVector) vector).setSafe(row, (Long) value);
      case FLOAT -> ((Float4Vector) vector).setSafe(row, (Float) value);
      case DOUBLE -> ((Float8Vector) vector).setSafe(row, (Double) value);
      case DECIMAL -> ((DecimalVector) vector).setSafe(row, (BigDecimal) value);
      case DATE -> ((DateDayVector) vector).setSafe(row, (int) ((LocalDate) value).toEpochDay());
      case TIME -> ((TimeMicroVector) vector).setSafe(row, ((LocalTime) value).toNanoOfDay() / 1000);
      case TIMESTAMP -> ((TimeStampVector) vector).setSafe(row, ChronoUnit.MICROS.between(Instant.EPOCH, instant(value)));
      case TIMESTAMP_NANO -> ((TimeStampVector) vector).setSafe(row, ChronoUnit.NANOS.between(Instant.EPOCH, instant(value)));
      case STRING -> ((VarCharVector) vector).setSafe(row, value.toString().getBytes(StandardCharsets.UTF_8));
      case UUID -> {
        UUID uuid = (UUID) value;
        ByteBuffer buffer = ByteBuffer.allocate(16);
        buffer.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
        ((FixedSizeBinaryVector) vector).setSafe(row, buffer.array());
      }
      case FIXED -> ((FixedSizeBinaryVector) vector).setSafe(row, (byte[]) value);
      case BINARY -> ((VarBinaryVector) vector).setSafe(row, bytes((ByteBuffer) value));
      default -> throw new UnsupportedOperationException("The single-node engine cannot read column type " + type);
    }
  }

  private static Instant instant(Object value) {
    if (value instanceof OffsetDateTime odt) {
      return odt.toInstant();
    }
    return ((LocalDateTime) value).toInstant(ZoneOffset.UTC);
  }

  private static byte[] bytes(ByteBuffer buffer) {
    ByteBuffer copy = buffer.duplicate();
    byte[] bytes = new byte[copy.remaining()];
    copy.get(bytes);
    return bytes;
  }

  /** Converts the rows of a root to records of the table schema, matching columns by name. */
  static List<Record> toRecords(Schema schema, VectorSchemaRoot root) {
    List<Record> records = new ArrayList<>(root.getRowCount());
    List<Types.NestedField> columns = schema.columns();
    FieldVector[] vectors = new FieldVector[columns.size()];
    for (int c = 0; c < columns.size(); c++) {
      vectors[c] = root.getVector(columns.get(c).name());
    }
    for (int row = 0; row < root.getRowCount(); row++) {
      GenericRecord record = GenericRecord.create(schema);
      for (int c = 0; c < columns.size(); c++) {
        FieldVector vector = vectors[c];
        if (vector != null && !vector.isNull(row)) {
          record.set(c, value(vector, row, columns.get(c).type()));
        }
      }
      records.add(record);
    }
    return records;
  }

  private static Object value(FieldVector vector, int row, Type type) {
    Object raw = vector.getObject(row);
    switch (type.typeId()) {
      case BOOLEAN:
        return raw;
      case INTEGER:
        return ((Number) raw).intValue();
      case LONG:
        return ((Number) raw).longValue();
      case FLOAT:
        return ((Number) raw).floatValue();
      case DOUBLE:
        return ((Number) raw).doubleValue();
      case DECIMAL:
        return ((BigDecimal) raw).setScale(((Types.DecimalType) type).scale());
      case DATE:
        if (vector instanceof DateDayVector days) {
          return LocalDate.ofEpochDay(days.get(row));
        }
        if (vector instanceof DateMilliVector millis) {
          return LocalDate.ofEpochDay(Math.floorDiv(millis.get(row), 86_400_000L));
        }
        break;
      case TIME:
        if (vector instanceof TimeMicroVector micros) {
          return LocalTime.ofNanoOfDay(micros.get(row) * 1000);
        }
        break;
      case TIMESTAMP:
      case TIMESTAMP_NANO:
        if (vector instanceof TimeStampVector ts) {
          ArrowType.Timestamp arrow = (ArrowType.Timestamp) ts.getField().getType();
          Instant instant = Instant.EPOCH.plus(ts.get(row), unit(arrow.getUnit()));
          boolean utc = type instanceof Types.TimestampType t ? t.shouldAdjustToUTC()
              : ((Types.TimestampNanoType) type).shouldAdjustToUTC();
          return utc ? instant.atOffset(ZoneOffset.UTC) : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        }
        break;
      case STRING:
        return raw instanceof Text text ? text.toString() : raw.toString();
      case UUID:
        {
          ByteBuffer buffer = ByteBuffer.wrap((byte[]) raw);
          return new UUID(buffer.getLong(), buffer.getLong());
        }
      case FIXED:
        return raw;
      case BINARY:
        return ByteBuffer.wrap((byte[]) raw);
      default:
        break;
    }
    if (vector instanceof TinyIntVector || vector instanceof SmallIntVector) {
      return ((Number) raw).intValue();
    }
    throw new UnsupportedOperationException("The single-node engine cannot write Arrow column "
        + vector.getField() + " to Iceberg type " + type);
  }

  private static ChronoUnit unit(TimeUnit unit) {
    return switch (unit) {
      case SECOND -> ChronoUnit.SECONDS;
      case MILLISECOND -> ChronoUnit.MILLIS;
      case MICROSECOND -> ChronoUnit.MICROS;
      case NANOSECOND -> ChronoUnit.NANOS;
    };
  }

  /** Writes records as one Parquet data file of an unpartitioned table, without committing it. */
  static DataFile writeDataFile(Table table, List<Record> records) {
    if (!table.spec().isUnpartitioned()) {
      throw new UnsupportedOperationException("writeTable supports unpartitioned tables only; "
          + table.name() + " is partitioned by " + table.spec() + ". Use table() and the Iceberg API instead");
    }
    OutputFile out = table.io().newOutputFile(
        table.locationProvider().newDataLocation(FileFormat.PARQUET.addExtension(UUID.randomUUID().toString())));
    try {
      DataWriter<Record> writer = Parquet.writeData(out)
          .schema(table.schema())
          .createWriterFunc(GenericParquetWriter::create)
          .withSpec(PartitionSpec.unpartitioned())
          .overwrite()
          .build();
      try (writer) {
        for (Record record : records) {
          writer.write(record);
        }
      }
      return writer.toDataFile();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads the rows of one scan task of a Parquet data file, applying its delete files. */
  static CloseableIterable<Record> readTask(Table table, FileScanTask task, Schema projection) {
    if (task.file().format() != FileFormat.PARQUET) {
      throw new UnsupportedOperationException("The single-node engine reads Parquet data files only, not "
          + task.file().location());
    }
    GenericDeleteFilter deletes = task.deletes().isEmpty() ? null
        : new GenericDeleteFilter(table.io(), task, table.schema(), projection);
    Schema read = deletes == null ? projection : deletes.requiredSchema();
    CloseableIterable<Record> records = Parquet.read(table.io().newInputFile(task.file().location()))
        .project(read)
        .split(task.start(), task.length())
        .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(read, fileSchema))
        .build();
    return deletes == null ? records : deletes.filter(records);
  }
}
