package dev.transforms.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/** Converts test rows to Iceberg records and back, and writes and reads them. */
final class TableRows {

  private TableRows() {}

  /**
   * Every row of a table at a snapshot (its current one when null), deletes applied, in the columns of
   * the schema that snapshot was written with ({@link #schemaAt}).
   */
  static List<Row> read(Table table, Long snapshotId) {
    if (table.currentSnapshot() == null) {
      return List.of();
    }
    IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
    if (snapshotId != null) {
      // Iceberg reads a snapshot in its own schema: a column added since is not in its records.
      scan = scan.useSnapshot(snapshotId);
    }
    List<Row> rows = new ArrayList<>();
    int columns = schemaAt(table, snapshotId).columns().size();
    try (CloseableIterable<Record> records = scan.build()) {
      for (Record record : records) {
        Object[] values = new Object[columns];
        for (int i = 0; i < columns; i++) {
          values[i] = record.get(i);
        }
        rows.add(Row.of(values));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /**
   * The schema a snapshot was written with: the table's current one for a null id, and for a snapshot
   * that records no schema (tables written before format version 2 could).
   */
  static Schema schemaAt(Table table, Long snapshotId) {
    if (snapshotId == null) {
      return table.schema();
    }
    Snapshot snapshot = table.snapshot(snapshotId);
    Integer schemaId = snapshot == null ? null : snapshot.schemaId();
    Schema schema = schemaId == null ? null : table.schemas().get(schemaId);
    return schema == null ? table.schema() : schema;
  }

  /** Writes rows as data files, one per partition, without committing them. */
  static List<DataFile> write(Table table, List<Row> rows) {
    Schema schema = table.schema();
    PartitionSpec spec = table.spec();
    Map<StructLike, List<Record>> byPartition = new HashMap<>();
    Map<StructLike, PartitionKey> keys = new HashMap<>();
    InternalRecordWrapper wrapper = new InternalRecordWrapper(schema.asStruct());
    for (Row row : rows) {
      Record record = toRecord(schema, row);
      PartitionKey key = new PartitionKey(spec, schema);
      key.partition(wrapper.wrap(record));
      keys.putIfAbsent(key, key);
      byPartition.computeIfAbsent(key, k -> new ArrayList<>()).add(record);
    }
    List<DataFile> files = new ArrayList<>();
    for (Map.Entry<StructLike, List<Record>> partition : byPartition.entrySet()) {
      PartitionKey key = keys.get(partition.getKey());
      String name = UUID.randomUUID() + ".parquet";
      OutputFile out = table.io().newOutputFile(spec.isUnpartitioned()
          ? table.locationProvider().newDataLocation(name)
          : table.locationProvider().newDataLocation(spec, key, name));
      try {
        DataWriter<Record> writer = Parquet.writeData(out)
            .schema(schema)
            .createWriterFunc(GenericParquetWriter::create)
            .withSpec(spec)
            .withPartition(spec.isUnpartitioned() ? null : key)
            .overwrite()
            .build();
        try (writer) {
          partition.getValue().forEach(writer::write);
        }
        files.add(writer.toDataFile());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }

  /** A record of the schema from a row, each value converted to its column's type. */
  static Record toRecord(Schema schema, Row row) {
    List<Types.NestedField> columns = schema.columns();
    if (row.values().size() != columns.size()) {
      throw new IllegalArgumentException("Row " + row + " has " + row.values().size() + " values, but the table has "
          + columns.size() + " columns: " + columns.stream().map(Types.NestedField::name).toList());
    }
    GenericRecord record = GenericRecord.create(schema);
    for (int i = 0; i < columns.size(); i++) {
      Types.NestedField column = columns.get(i);
      Object value = row.get(i);
      if (value == null && column.isRequired()) {
        throw new IllegalArgumentException("Row " + row + " has null for required column " + column.name());
      }
      record.set(i, value == null ? null : convert(column, value, row));
    }
    return record;
  }

  /** Converts a value (or its text, as in a CSV file) to the Java type Iceberg's generic data uses. */
  static Object convert(Types.NestedField column, Object value, Object where) {
    Type type = column.type();
    String text = value instanceof String s ? s.strip() : null;
    try {
      switch (type.typeId()) {
        case BOOLEAN:
          return text != null ? Boolean.parseBoolean(text) : (Boolean) value;
        case INTEGER:
          return text != null ? Integer.parseInt(text) : ((Number) value).intValue();
        case LONG:
          return text != null ? Long.parseLong(text) : ((Number) value).longValue();
        case FLOAT:
          return text != null ? Float.parseFloat(text) : ((Number) value).floatValue();
        case DOUBLE:
          return text != null ? Double.parseDouble(text) : ((Number) value).doubleValue();
        case DECIMAL:
          BigDecimal decimal = text != null ? new BigDecimal(text) : new BigDecimal(value.toString());
          return decimal.setScale(((Types.DecimalType) type).scale());
        case DATE:
          return text != null ? LocalDate.parse(text) : (LocalDate) value;
        case TIME:
          return text != null ? LocalTime.parse(text) : (LocalTime) value;
        case TIMESTAMP:
          if (((Types.TimestampType) type).shouldAdjustToUTC()) {
            return text != null ? OffsetDateTime.parse(text.replace(' ', 'T')) : (OffsetDateTime) value;
          }
          return text != null ? LocalDateTime.parse(text.replace(' ', 'T')) : (LocalDateTime) value;
        case STRING:
          return value.toString();
        case UUID:
          return text != null ? UUID.fromString(text) : (UUID) value;
        case BINARY:
          return value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : (ByteBuffer) value;
        default:
          return value;
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Value " + (text != null ? "'" + text + "'" : value) + " of " + where
          + " does not fit column " + column.name() + " of type " + type + ": " + e.getMessage(), e);
    }
  }

}
