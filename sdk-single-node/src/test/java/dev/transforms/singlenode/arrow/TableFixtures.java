package dev.transforms.singlenode.arrow;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;

/** Tables in a temporary folder, and ways to fill them, shared by the Arrow tests. */
final class TableFixtures {
  private TableFixtures() {}

  static Table create(Path dir, String name, Schema schema, PartitionSpec spec, int formatVersion) {
    return create(dir, name, schema, spec, formatVersion, Map.of());
  }

  static Table create(
      Path dir,
      String name,
      Schema schema,
      PartitionSpec spec,
      int formatVersion,
      Map<String, String> properties) {
    Map<String, String> props = new HashMap<>(properties);
    props.put(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion));
    return new HadoopTables(new Configuration())
        .create(schema, spec, props, dir.resolve(name).toString());
  }

  /** Writes records through our Arrow writer and appends the files. */
  static List<DataFile> append(Table table, List<Record> records, BufferAllocator allocator) {
    try (VectorSchemaRoot root = ArrowRecords.toRoot(records, table.schema(), allocator)) {
      List<DataFile> files = ArrowTableWriter.writeDataFiles(table, root);
      commit(table, files);
      return files;
    }
  }

  static void commit(Table table, Collection<DataFile> files) {
    AppendFiles append = table.newAppend();
    files.forEach(append::appendFile);
    append.commit();
  }

  /** Reads a table with Iceberg's own generic reader. */
  static List<Record> readGenerics(Table table) {
    List<Record> result = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        result.add(record.copy());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return result;
  }

  static Record record(Schema schema, Object... values) {
    GenericRecord record = GenericRecord.create(schema);
    for (int i = 0; i < values.length; i++) {
      record.set(i, values[i]);
    }
    return record;
  }

  static void deletePositions(Table table, DataFile file, long... positions) throws IOException {
    GenericFileWriterFactory factory = new GenericFileWriterFactory.Builder(table).build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PARQUET).build();
    PositionDeleteWriter<Record> writer =
        factory.newPositionDeleteWriter(files.newOutputFile(), table.spec(), file.partition());
    PositionDelete<Record> delete = PositionDelete.create();
    try (writer) {
      for (long position : positions) {
        writer.write(delete.set(file.location(), position));
      }
    }
    table.newRowDelta().addDeletes(writer.toDeleteFile()).commit();
  }

  static void deleteEqual(Table table, String column, Object... values) throws IOException {
    Schema deleteSchema = table.schema().select(column);
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table)
            .equalityFieldIds(new int[] {table.schema().findField(column).fieldId()})
            .equalityDeleteRowSchema(deleteSchema)
            .build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, 2).format(FileFormat.PARQUET).build();
    // unpartitioned tables only: the deletes apply to the whole table
    EqualityDeleteWriter<Record> writer =
        factory.newEqualityDeleteWriter(files.newOutputFile(), table.spec(), null);
    try (writer) {
      for (Object value : values) {
        writer.write(record(deleteSchema, value));
      }
    }
    table.newRowDelta().addDeletes(writer.toDeleteFile()).commit();
  }

  static void deleteWithVector(Table table, DataFile file, long... positions) throws IOException {
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, 3).format(FileFormat.PUFFIN).build();
    BaseDVFileWriter writer = new BaseDVFileWriter(files, path -> null);
    try (writer) {
      for (long position : positions) {
        writer.delete(file.location(), position, table.spec(), file.partition());
      }
    }
    RowDelta delta = table.newRowDelta();
    for (DeleteFile delete : writer.result().deleteFiles()) {
      delta.addDeletes(delete);
    }
    delta.commit();
  }
}
