package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.read.LiveRows;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteIndexUtil;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.StructLikeMap;
import org.apache.iceberg.util.StructLikeUtil;

/**
 * The deletes one merge-on-read attempt marks, and their delete files: per data file, the positions
 * it loses (written as a Parquet position delete file in format v2, a deletion vector in v3, each
 * merged with the file's existing file-scoped deletes, which it replaces), and equality deletes per
 * partition, deduplicated by key.
 *
 * <p>Part of {@link EditFiles}, which records every file written here so that an attempt that is not
 * committed leaves none behind.
 */
final class PendingDeletes {
  private final Table table;
  private final int formatVersion;
  private final GenericFileWriterFactory writerFactory;
  private final Schema equalityDeleteSchema;
  private final BiFunction<FileFormat, String, OutputFileFactory> fileFactory;
  private final FileFormat deleteFormat;
  private final Consumer<String> written;
  private Future<PositionDeleteFiles> positionDeleteTask = null;

  /** Position deletes per data file path, in the order files were read. */
  private final Map<String, PendingPositions> positions = new LinkedHashMap<>();

  /** Equality delete rows per spec id and partition, deduplicated by key. */
  private final Map<Integer, StructLikeMap<Map<Object, Record>>> equalityDeletes = new HashMap<>();

  /**
   * @param writerFactory the attempt's writer factory, set up for equality deletes when there are
   * @param equalityDeleteSchema the columns of equality deletes, or null when there are none
   * @param fileFactory new files of a format, their names ending with a suffix
   * @param written told of every file written, from the thread that wrote it
   */
  PendingDeletes(
      Table table,
      int formatVersion,
      GenericFileWriterFactory writerFactory,
      Schema equalityDeleteSchema,
      BiFunction<FileFormat, String, OutputFileFactory> fileFactory,
      FileFormat deleteFormat,
      Consumer<String> written) {
    this.table = table;
    this.formatVersion = formatVersion;
    this.writerFactory = writerFactory;
    this.equalityDeleteSchema = equalityDeleteSchema;
    this.fileFactory = fileFactory;
    this.deleteFormat = deleteFormat;
    this.written = written;
  }

  /**
   * Marks positions of a data file as deleted.
   *
   * @param previous the positions already deleted by the file's existing position deletes or
   *     deletion vector, or null; file-scoped ones are merged into the new delete file and replaced
   */
  void deletePositions(DataFile file, PositionDeleteIndex deleted, PositionDeleteIndex previous) {
    positions.put(file.location(), new PendingPositions(file, deleted, previous));
  }

  /** The positions, in rows of {@code rowSchema}, of the columns equality deletes match on. */
  int[] equalityColumnsIn(Schema rowSchema) {
    List<Types.NestedField> fields = equalityDeleteSchema.columns();
    int[] positions = new int[fields.size()];
    for (int i = 0; i < fields.size(); i += 1) {
      positions[i] = LiveRows.columnIndex(rowSchema, fields.get(i).fieldId());
    }
    return positions;
  }

  /**
   * Adds an equality delete for the row's values in the equality fields, in the file's partition.
   *
   * @param positions where the equality columns are in the row ({@link #equalityColumnsIn})
   */
  void deleteEqual(DataFile file, Record row, int[] positions) {
    PartitionSpec fileSpec = table.specs().get(file.specId());
    StructLikeMap<Map<Object, Record>> byPartition =
        equalityDeletes.computeIfAbsent(
            fileSpec.specId(), id -> StructLikeMap.create(fileSpec.partitionType()));
    Map<Object, Record> deletes = byPartition.get(file.partition());
    if (deletes == null) {
      deletes = new LinkedHashMap<>();
      byPartition.put(StructLikeUtil.copy(file.partition()), deletes);
    }
    Object[] key = new Object[positions.length];
    GenericRecord delete = GenericRecord.create(equalityDeleteSchema);
    for (int i = 0; i < positions.length; i += 1) {
      Object value = row.get(positions[i]);
      delete.set(i, value);
      key[i] =
          Values.internal(equalityDeleteSchema.columns().get(i).type().asPrimitiveType(), value);
    }
    deletes.putIfAbsent(Arrays.asList(key), delete);
  }

  /**
   * Starts writing the position deletes marked so far on a background thread, while the caller
   * writes new rows; {@link #finish()} waits for it. No position may be marked after this.
   */
  void startPositionDeletes() {
    if (positionDeleteTask == null && !positions.isEmpty()) {
      positionDeleteTask = BackgroundThreads.call(this::writePositionDeletes);
    }
  }

  /**
   * Writes every delete file not written yet, after waiting for the position deletes started on
   * another thread.
   *
   * @param replaced receives the delete files they replace
   * @param referenced receives the locations of the data files their position deletes point at
   */
  void finish(List<DeleteFile> deleteFiles, List<DeleteFile> replaced, Set<String> referenced) {
    PositionDeleteFiles positionFiles = awaitPositionDeletes();
    if (positionFiles == null) {
      positionFiles = writePositionDeletes();
    }
    deleteFiles.addAll(positionFiles.written);
    replaced.addAll(positionFiles.replaced);
    referenced.addAll(positionFiles.referencedDataFiles);
    writeEqualityDeletes(deleteFiles);
  }

  /**
   * Waits for the position deletes started on another thread, if any, so that every file they
   * write has been reported before the attempt's files are removed; their failure is not thrown.
   */
  void awaitQuietly() {
    try {
      awaitPositionDeletes();
    } catch (RuntimeException | Error e) {
      // the attempt already failed; removing what was written matters more than this error
    }
  }

  /** The position delete files or deletion vectors written, what they replace, what they reference. */
  private static final class PositionDeleteFiles {
    private final List<DeleteFile> written = new ArrayList<>();
    private final List<DeleteFile> replaced = new ArrayList<>();
    private final Set<String> referencedDataFiles = new HashSet<>();
  }

  private PositionDeleteFiles writePositionDeletes() {
    PositionDeleteFiles files = new PositionDeleteFiles();
    if (!positions.isEmpty()) {
      if (formatVersion >= 3) {
        writeDeletionVectors(files);
      } else {
        writePositionDeleteFiles(files);
      }
    }
    return files;
  }

  /** Waits for the background position deletes, if started; null if not. */
  private PositionDeleteFiles awaitPositionDeletes() {
    if (positionDeleteTask == null) {
      return null;
    }
    Future<PositionDeleteFiles> task = positionDeleteTask;
    positionDeleteTask = null;
    return BackgroundThreads.await(task);
  }

  private void writeDeletionVectors(PositionDeleteFiles files) {
    BaseDVFileWriter writer =
        new BaseDVFileWriter(
            fileFactory.apply(FileFormat.PUFFIN, "dv"),
            path -> {
              PendingPositions pending = positions.get(path);
              return pending == null ? null : pending.previous;
            });
    try {
      try (BaseDVFileWriter closing = writer) {
        for (PendingPositions pending : positions.values()) {
          DataFile file = pending.file;
          closing.delete(
              file.location(),
              pending.deleted,
              table.specs().get(file.specId()),
              file.partition());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write deletion vectors for " + table.name(), e);
    }
    DeleteWriteResult result = writer.result();
    // One Puffin file holds the vectors of every data file: each of its delete files names that file.
    result.deleteFiles().stream().map(DeleteFile::location).distinct().forEach(written);
    files.written.addAll(result.deleteFiles());
    files.replaced.addAll(result.rewrittenDeleteFiles());
    result.referencedDataFiles().forEach(path -> files.referencedDataFiles.add(path.toString()));
  }

  private void writePositionDeleteFiles(PositionDeleteFiles files) {
    OutputFileFactory factory = fileFactory.apply(deleteFormat, "deletes");
    for (PendingPositions pending : positions.values()) {
      DataFile file = pending.file;
      PartitionSpec fileSpec = table.specs().get(file.specId());
      PositionDeleteIndex deleted = pending.deleted;
      List<DeleteFile> replacedHere = new ArrayList<>();
      if (pending.previous != null) {
        for (DeleteFile previous : pending.previous.deleteFiles()) {
          if (ContentFileUtil.isFileScoped(previous)) {
            replacedHere.add(previous);
          }
        }
        if (!replacedHere.isEmpty()) {
          deleted = PositionDeleteIndexUtil.merge(List.of(deleted, pending.previous));
        }
      }

      EncryptedOutputFile output =
          fileSpec.isUnpartitioned()
              ? factory.newOutputFile()
              : factory.newOutputFile(fileSpec, file.partition());
      PositionDeleteWriter<Record> writer =
          writerFactory.newPositionDeleteWriter(output, fileSpec, file.partition());
      PositionDelete<Record> delete = PositionDelete.create();
      String path = file.location();
      try {
        try (PositionDeleteWriter<Record> closing = writer) {
          deleted.forEach(pos -> closing.write(delete.set(path, pos)));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to write position deletes for " + path, e);
      }
      DeleteFile deleteFile = writer.toDeleteFile();
      written.accept(deleteFile.location());
      files.written.add(deleteFile);
      files.replaced.addAll(replacedHere);
      files.referencedDataFiles.add(path);
    }
  }

  private void writeEqualityDeletes(List<DeleteFile> deleteFiles) {
    if (equalityDeletes.isEmpty()) {
      return;
    }
    OutputFileFactory factory = fileFactory.apply(deleteFormat, "eq-deletes");
    for (Map.Entry<Integer, StructLikeMap<Map<Object, Record>>> bySpec :
        equalityDeletes.entrySet()) {
      PartitionSpec fileSpec = table.specs().get(bySpec.getKey());
      for (Map.Entry<StructLike, Map<Object, Record>> byPartition : bySpec.getValue().entrySet()) {
        StructLike partition = byPartition.getKey();
        EncryptedOutputFile output =
            fileSpec.isUnpartitioned()
                ? factory.newOutputFile()
                : factory.newOutputFile(fileSpec, partition);
        EqualityDeleteWriter<Record> writer =
            writerFactory.newEqualityDeleteWriter(output, fileSpec, partition);
        try {
          try (EqualityDeleteWriter<Record> closing = writer) {
            byPartition.getValue().values().forEach(closing::write);
          }
        } catch (IOException e) {
          throw new UncheckedIOException("Failed to write equality deletes for " + table.name(), e);
        }
        DeleteFile deleteFile = writer.toDeleteFile();
        written.accept(deleteFile.location());
        deleteFiles.add(deleteFile);
      }
    }
  }

  private record PendingPositions(DataFile file, PositionDeleteIndex deleted, PositionDeleteIndex previous) {}
}
