package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.parquet.WriterSettings;
import dev.transforms.singlenode.internal.plan.RewriteRequest;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriteResult;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.FileWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.PartitioningWriter;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.util.PropertyUtil;

/**
 * The files one attempt of a row edit writes: new data files (rows added and rows kept from
 * rewritten files), written here, and delete files (position deletes, deletion vectors or equality
 * deletes), written by its {@link PendingDeletes}.
 *
 * <p>Writers are opened lazily. {@link #finish()} closes them and returns what to commit. Closing
 * this object removes every file written unless {@link #keep()} said they were committed, so an
 * attempt that fails or conflicts leaves no files behind.
 */
final class EditFiles implements Closeable {
  private final Table table;
  private final Schema schema;
  private final Schema dataSchema;
  private final boolean rowLineage;
  private final PartitionSpec spec;
  private final GenericFileWriterFactory writerFactory;
  private final long targetFileSize;
  private final String operationId = UUID.randomUUID().toString();
  /**
   * One factory per format and name suffix: a factory numbers the files it names, so every file of the
   * attempt gets a name of its own only while each kind of file is named by one factory.
   */
  private final Map<String, OutputFileFactory> fileFactories = new ConcurrentHashMap<>();
  // appended to by the thread writing position deletes too
  private final Set<String> writtenPaths = Collections.synchronizedSet(new LinkedHashSet<>());
  private final PendingDeletes deletes;

  // slot 0 takes new rows, and the kept rows of the files rewritten one at a time; a second file rewritten
  // at the same time writes in a slot of its own
  private final List<Slot> slots = new java.util.concurrent.CopyOnWriteArrayList<>(List.of(new Slot()));

  /** Data files written by native rewrites, committed with the lanes' files. */
  private final List<DataFile> rewritten = Collections.synchronizedList(new ArrayList<>());

  /** The files of the lanes' writers closed at the end of a rewritten file ({@link Slot#endRewrittenFile}). */
  private final List<DataFile> closedLaneFiles = new ArrayList<>();

  private Result result = null;
  private boolean kept = false;

  /**
   * Creates the files of one attempt.
   *
   * @param carryRowLineage whether written rows carry {@code _row_id} and {@code
   *     _last_updated_sequence_number} (only for tables that track row lineage, and only when rows
   *     are moved or replaced; new rows get theirs when committed)
   */
  EditFiles(
      Table table,
      Schema schema,
      int formatVersion,
      int[] equalityFieldIds,
      boolean carryRowLineage) {
    this.table = table;
    this.schema = schema;
    this.rowLineage = carryRowLineage && TableUtil.supportsRowLineage(table);
    this.dataSchema = rowLineage ? MetadataColumns.schemaWithRowLineage(schema) : schema;
    this.spec = table.spec();
    Schema equalityDeleteSchema =
        equalityFieldIds == null ? null : TypeUtil.select(schema, toSet(equalityFieldIds));
    GenericFileWriterFactory.Builder builder =
        new GenericFileWriterFactory.Builder(table)
            .dataSchema(dataSchema)
            .writerProperties(WriterSettings.writerProperties(table.properties()));
    if (equalityFieldIds != null) {
      builder.equalityFieldIds(equalityFieldIds).equalityDeleteRowSchema(equalityDeleteSchema);
    }
    this.writerFactory = builder.build();
    this.targetFileSize =
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    this.deletes =
        new PendingDeletes(
            table,
            formatVersion,
            writerFactory,
            equalityDeleteSchema,
            this::fileFactory,
            deleteFormat(),
            this::claim);
  }

  /** The deletes of a merge-on-read attempt, whose files are among this attempt's files. */
  PendingDeletes deletes() {
    return deletes;
  }

  /**
   * Writes a row of the table schema that is new or replaces a table row.
   *
   * @param rowId the lineage id of the row it replaces, or null for a new row; ignored unless the
   *     table tracks row lineage. The last-updated sequence number is left null, so the commit's
   *     sequence number applies.
   */
  void writeNew(Record row, Long rowId) {
    if (!rowLineage) {
      writeKept(row);
      return;
    }
    GenericRecord withLineage = GenericRecord.create(dataSchema);
    int columns = schema.columns().size();
    for (int i = 0; i < columns; i += 1) {
      withLineage.set(i, row.get(i));
    }
    withLineage.set(columns, rowId);
    writeKept(withLineage);
  }

  /**
   * Writes a row unchanged from a rewritten file, read with the table's columns first and, when the
   * table tracks row lineage, {@code _row_id} and {@code _last_updated_sequence_number} next, so
   * that both carry over. Fields after those (such as {@code _pos}) are ignored.
   */
  void writeKept(Record row) {
    slots.get(0).write(row);
  }

  /**
   * Writes a kept row, as {@link #writeKept(Record)}, in one of two lanes: each lane writes files of
   * its own, so that two threads may write at once, one lane each.
   */
  void writeKept(Record row, int lane) {
    slots.get(0).write(row, lane);
  }

  /**
   * The writers of the kept rows of one file rewritten at a time: slot 0 is this object's own
   * ({@link #writeKept(Record)}); another slot lets another thread rewrite another file meanwhile.
   *
   * @param index the slot, from 0
   * @return the slot
   */
  synchronized Slot slot(int index) {
    while (slots.size() <= index) {
      slots.add(new Slot());
    }
    return slots.get(index);
  }

  /**
   * Writers of kept rows, in two lanes: each lane writes files of its own, so that two threads may write
   * one file's rows at once, one lane each. Used by one file's rewrite at a time.
   */
  final class Slot {
    // lane 0 takes the rows of the calling thread; a rewrite may write with a second thread in lane 1
    private final DataLane[] lanes = {new DataLane("data"), new DataLane("data-2")};

    /** Writes a kept row in lane 0. */
    void write(Record row) {
      lanes[0].write(row);
    }

    /** Writes a kept row in one of the two lanes. */
    void write(Record row, int lane) {
      lanes[lane].write(row);
    }

    /**
     * Ends the new files of one rewritten data file: its kept rows stay in files of their own, rolled at
     * the table's target size, and the next rows go to new ones. So a copy-on-write keeps the table's
     * files apart, however many it rewrites, and holds the writers of the files in flight, not of all.
     */
    void endRewrittenFile() {
      List<DataFile> done = close();
      done.forEach(file -> claim(file.location()));
      synchronized (closedLaneFiles) {
        closedLaneFiles.addAll(done);
      }
    }

    /** Closes both lanes; returns the files they wrote. */
    private List<DataFile> close() {
      List<DataFile> dataFiles = new ArrayList<>();
      IOException failure = null;
      for (DataLane lane : lanes) {
        try {
          dataFiles.addAll(lane.close());
        } catch (IOException e) {
          failure = e; // close the other lane all the same
        }
      }
      if (failure != null) {
        throw new UncheckedIOException("Failed to close data writer for " + table.name(), failure);
      }
      return dataFiles;
    }
  }

  /**
   * Whether kept rows may hold strings as Avro's {@code Utf8} bytes instead of {@code String}s: the
   * data files are Parquet, whose writer takes both, and no partition value is computed from a
   * string column.
   */
  boolean takesUtf8Strings() {
    if (dataFormat() != FileFormat.PARQUET) {
      return false;
    }
    for (org.apache.iceberg.PartitionField field : spec.fields()) {
      if (schema.findType(field.sourceId()).typeId() == org.apache.iceberg.types.Type.TypeID.STRING) {
        return false;
      }
    }
    return true;
  }

  /** The data files of one writing thread. */
  private final class DataLane {
    private final String suffix;
    private FileWriter<Record, DataWriteResult> unpartitionedWriter = null;
    private PartitioningWriter<Record, DataWriteResult> partitionedWriter = null;
    private PartitionKey partitionKey = null;
    private InternalRecordWrapper partitionWrapper = null;

    private DataLane(String suffix) {
      this.suffix = suffix;
    }

    private void write(Record row) {
      if (spec.isUnpartitioned()) {
        if (unpartitionedWriter == null) {
          unpartitionedWriter =
              new RollingDataWriter<>(
                  writerFactory,
                  fileFactory(dataFormat(), suffix),
                  table.io(),
                  targetFileSize,
                  spec,
                  null);
        }
        unpartitionedWriter.write(row);
      } else {
        if (partitionedWriter == null) {
          partitionedWriter =
              new FanoutDataWriter<>(
                  writerFactory, fileFactory(dataFormat(), suffix), table.io(), targetFileSize);
          partitionKey = new PartitionKey(spec, schema);
          partitionWrapper = new InternalRecordWrapper(schema.asStruct());
        }
        partitionKey.partition(partitionWrapper.wrap(row));
        partitionedWriter.write(row, spec, partitionKey);
      }
    }

    /** Closes the lane's writers; returns the files they wrote. */
    private List<DataFile> close() throws IOException {
      List<DataFile> dataFiles = new ArrayList<>();
      if (unpartitionedWriter != null) {
        FileWriter<Record, DataWriteResult> writer = unpartitionedWriter;
        unpartitionedWriter = null;
        writer.close();
        dataFiles.addAll(writer.result().dataFiles());
      }
      if (partitionedWriter != null) {
        PartitioningWriter<Record, DataWriteResult> writer = partitionedWriter;
        partitionedWriter = null;
        writer.close();
        dataFiles.addAll(writer.result().dataFiles());
      }
      return dataFiles;
    }
  }

  /**
   * The request the rewrite planner plans a data file's rewrite by.
   *
   * @param probes whether the change finds its dropped rows by fewer columns than all
   */
  RewriteRequest rewriteRequest(FileScanTask task, boolean probes) {
    return new RewriteRequest(table, dataSchema, task, rowLineage || dataFormat() != FileFormat.PARQUET, probes);
  }

  /**
   * Names and claims the location of a new Parquet data file that rewrites a task's file, for a native
   * rewrite strategy, which writes it itself.
   *
   * @return the location, claimed (a failed operation deletes it)
   */
  String claimRewrite(FileScanTask task) {
    // as Iceberg's writers name files: an unpartitioned spec's partition path is empty, which would give
    // DATA//NAME, another key than DATA/NAME on object storage
    OutputFileFactory files = fileFactory(FileFormat.PARQUET, "data-rewrite");
    String location = (spec.isUnpartitioned() ? files.newOutputFile()
        : files.newOutputFile(spec, task.file().partition())).encryptingOutputFile().location();
    claim(location);
    return location;
  }

  /**
   * Keeps the file a native strategy wrote at a claimed location, or releases the location when it wrote
   * nothing there.
   */
  void keepRewrite(String location, Optional<DataFile> written) {
    written.ifPresentOrElse(rewritten::add, () -> writtenPaths.remove(location));
  }

  /** Closes every writer and returns the files to commit. */
  Result finish() {
    if (result != null) {
      return result;
    }

    List<DataFile> dataFiles = closeDataWriters();
    List<DeleteFile> deleteFiles = new ArrayList<>();
    List<DeleteFile> replaced = new ArrayList<>();
    Set<String> referenced = new HashSet<>();
    deletes.finish(deleteFiles, replaced, referenced);

    this.result = new Result(dataFiles, deleteFiles, replaced, referenced);
    return result;
  }

  private List<DataFile> closeDataWriters() {
    List<DataFile> dataFiles = new ArrayList<>();
    RuntimeException failure = null;
    for (Slot slot : List.copyOf(slots)) {
      try {
        dataFiles.addAll(slot.close());
      } catch (RuntimeException e) {
        failure = e; // close the other slots all the same
      }
    }
    if (failure != null) {
      throw failure;
    }
    dataFiles.forEach(file -> claim(file.location()));
    synchronized (closedLaneFiles) {
      dataFiles.addAll(closedLaneFiles);
      closedLaneFiles.clear();
    }
    dataFiles.addAll(rewritten);
    rewritten.clear();
    return dataFiles;
  }

  /** Removes every file this attempt wrote; for an attempt that will not be committed. */
  void abort() {
    try {
      closeDataWriters();
    } catch (RuntimeException e) {
      // the attempt already failed; removing what was written matters more than this error
    }
    deletes.awaitQuietly(); // the files of its thread are in writtenPaths once it is done
    for (String path : List.copyOf(writtenPaths)) {
      try {
        table.io().deleteFile(path);
      } catch (RuntimeException e) {
        // an orphan file is harmless; keep removing the others
      }
    }
    writtenPaths.clear();
  }

  /** Marks the written files as part of the table: {@link #close()} leaves them in place. */
  void keep() {
    this.kept = true;
  }

  /** Removes the written files unless {@link #keep()} was called. */
  @Override
  public void close() {
    if (!kept) {
      abort();
    }
  }

  private OutputFileFactory fileFactory(FileFormat format, String suffix) {
    return fileFactories.computeIfAbsent(format + "/" + suffix, key -> OutputFileFactory.builderFor(table, 1, 1)
        .format(format)
        .operationId(operationId)
        .suffix(suffix)
        .build());
  }

  /**
   * Records a file this attempt writes, so that an attempt that is not committed removes it; refuses a
   * name given twice, which would make two of the attempt's files one.
   */
  private void claim(String location) {
    if (!writtenPaths.add(location)) {
      throw new IllegalStateException("Row edit of " + table.name() + " named two of its new files " + location
          + "; nothing was committed");
    }
  }

  private FileFormat dataFormat() {
    return FileFormat.fromString(
        table
            .properties()
            .getOrDefault(
                TableProperties.DEFAULT_FILE_FORMAT, TableProperties.DEFAULT_FILE_FORMAT_DEFAULT));
  }

  private FileFormat deleteFormat() {
    String name = table.properties().get(TableProperties.DELETE_DEFAULT_FILE_FORMAT);
    return name == null ? dataFormat() : FileFormat.fromString(name);
  }

  private static Set<Integer> toSet(int[] ids) {
    Set<Integer> set = new HashSet<>();
    for (int id : ids) {
      set.add(id);
    }
    return set;
  }

  /**
   * What to commit: data files and delete files added, delete files they replace.
   *
   * @param replacedDeleteFiles the delete files the added ones replace
   * @param referencedDataFiles the data files the added delete files refer to
   */
  record Result(List<DataFile> dataFiles, List<DeleteFile> deleteFiles, List<DeleteFile> replacedDeleteFiles,
      Set<String> referencedDataFiles) {
    /** The data and delete files the commit adds. */
    List<org.apache.iceberg.ContentFile<?>> added() {
      List<org.apache.iceberg.ContentFile<?>> added = new ArrayList<>(dataFiles);
      added.addAll(deleteFiles);
      return added;
    }
  }
}
