package dev.transforms.testengine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/** Reads and writes one-column {@code id bigint} tables with Iceberg's generic data API. */
public final class IdTables {
  /** The schema of every test table. */
  public static final Schema SCHEMA = new Schema(Types.NestedField.optional(1, "id", Types.LongType.get()));

  private IdTables() {}

  /** Writes ids as one data file and appends it, on a branch (or main when null), with summary properties. */
  public static void append(Table table, String branch, Map<String, String> props, long... ids) {
    DataFile file = write(table, ids);
    AppendFiles append = table.newAppend().appendFile(file);
    if (branch != null) {
      append.toBranch(branch);
    }
    props.forEach(append::set);
    append.commit();
  }

  static DataFile write(Table table, long... ids) {
    OutputFile out = table.io().newOutputFile(table.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet"));
    try {
      DataWriter<org.apache.iceberg.data.Record> writer = Parquet.writeData(out)
          .schema(table.schema())
          .createWriterFunc(GenericParquetWriter::create)
          .withSpec(PartitionSpec.unpartitioned())
          .overwrite()
          .build();
      try (writer) {
        for (long id : ids) {
          GenericRecord record = GenericRecord.create(table.schema());
          record.setField("id", id);
          writer.write(record);
        }
      }
      return writer.toDataFile();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads the ids of a table at a snapshot (or its current one when null). */
  public static List<Long> ids(Table table, Long snapshotId) {
    IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
    if (snapshotId != null) {
      scan = scan.useSnapshot(snapshotId);
    }
    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<org.apache.iceberg.data.Record> records = scan.build()) {
      records.forEach(r -> ids.add((Long) r.getField("id")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ids.sort(null);
    return ids;
  }

  /** Reads ids appended after {@code from} (exclusive) up to {@code to}. */
  public static List<Long> appendedIds(Table table, long from, long to) {
    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<org.apache.iceberg.FileScanTask> tasks =
        table.newIncrementalAppendScan().fromSnapshotExclusive(from).toSnapshot(to).planFiles()) {
      for (org.apache.iceberg.FileScanTask task : tasks) {
        try (CloseableIterable<org.apache.iceberg.data.Record> records = Parquet.read(table.io().newInputFile(task.file().location()))
            .project(SCHEMA)
            .createReaderFunc(s -> org.apache.iceberg.data.parquet.GenericParquetReaders.buildReader(SCHEMA, s))
            .build()) {
          records.forEach(r -> ids.add((Long) r.getField("id")));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ids.sort(null);
    return ids;
  }

}
