package dev.transforms.singlenode.sql;

import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;

/** Filling and reading the tables of the SQL session tests. */
final class SqlTables {
  private SqlTables() {}

  static Record row(Schema schema, Object... values) {
    GenericRecord record = GenericRecord.create(schema);
    for (int i = 0; i < values.length; i++) {
      record.set(i, values[i]);
    }
    return record;
  }

  /** Appends the records as one data file, in order (so that a row's position is its index). */
  static DataFile append(Table table, List<Record> records) {
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = ArrowRecords.toRoot(records, table.schema(), allocator)) {
      List<DataFile> files = ArrowTableWriter.writeDataFiles(table, root);
      AppendFiles append = table.newAppend();
      files.forEach(append::appendFile);
      append.commit();
      return files.get(0);
    }
  }

  /** Deletes rows of a data file by position, with a position delete file. */
  static void deletePositions(Table table, DataFile file, long... positions) {
    GenericFileWriterFactory factory = new GenericFileWriterFactory.Builder(table).build();
    OutputFileFactory files = OutputFileFactory.builderFor(table, 7, 1).format(FileFormat.PARQUET).build();
    PositionDeleteWriter<Record> writer =
        factory.newPositionDeleteWriter(files.newOutputFile(), table.spec(), file.partition());
    PositionDelete<Record> delete = PositionDelete.create();
    try (writer) {
      for (long position : positions) {
        writer.write(delete.set(file.location(), position));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    table.newRowDelta().addDeletes(writer.toDeleteFile()).commit();
  }

  /** Deletes every row whose column equals one of the values, with an equality delete file. */
  static void deleteWhereEqual(Table table, String column, Object... values) {
    Schema keys = table.schema().select(column);
    GenericFileWriterFactory factory = new GenericFileWriterFactory.Builder(table)
        .equalityFieldIds(new int[] {table.schema().findField(column).fieldId()})
        .equalityDeleteRowSchema(keys)
        .build();
    OutputFileFactory files = OutputFileFactory.builderFor(table, 7, 2).format(FileFormat.PARQUET).build();
    EqualityDeleteWriter<Record> writer = factory.newEqualityDeleteWriter(files.newOutputFile(), table.spec(), null);
    try (writer) {
      for (Object value : values) {
        writer.write(row(keys, value));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    table.newRowDelta().addDeletes(writer.toDeleteFile()).commit();
  }

  /** Every live row, with Iceberg's own generic reader. */
  static List<Record> read(Table table) {
    table.refresh();
    List<Record> rows = new ArrayList<>();
    if (table.currentSnapshot() == null) {
      return rows;
    }
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        rows.add(record.copy());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }
}
