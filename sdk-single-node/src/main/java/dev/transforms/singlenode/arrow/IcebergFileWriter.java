package dev.transforms.singlenode.arrow;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriteResult;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.RollingDataWriter;

/**
 * The Iceberg writer behind an {@link ArrowTableWriter} lane: rolling files for unpartitioned tables,
 * fanout otherwise; what each has written so far, for a writer that fails part-way.
 */
interface IcebergFileWriter {
  /** Writes a row into the partition's files. */
  void write(Record record, PartitionKey partition);

  /** Closes the open files. */
  void close() throws IOException;

  /** The files written, once closed. */
  List<DataFile> dataFiles();

  /** The files complete so far: after a close that failed part-way, those that were written. */
  List<DataFile> writtenSoFar();

  /**
   * Rolling files, in the order of the rows: the files of writers closed so far, then the files of
   * the writer open now (started on the first row after the last close).
   */
  final class Unpartitioned implements IcebergFileWriter {
    private final Supplier<RollingDataWriter<Record>> writers;
    private final List<DataFile> closedFiles = new ArrayList<>();
    private RollingDataWriter<Record> current;
    private boolean closed;

    Unpartitioned(Supplier<RollingDataWriter<Record>> writers) {
      this.writers = writers;
    }

    RollingDataWriter<Record> newWriter() {
      return writers.get();
    }

    @Override
    public void write(Record record, PartitionKey partition) {
      if (current == null) {
        current = writers.get();
      }
      current.write(record);
    }

    /** Closes the open writer, if any, and keeps its files. */
    void closeCurrent() {
      RollingDataWriter<Record> open = current;
      current = null;
      if (open != null) {
        try {
          closeAndKeep(open);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }

    /** Keeps a file written elsewhere (by DuckDB) after the ones kept before. */
    void keep(DataFile file) {
      closedFiles.add(file);
    }

    /** Closes a writer and keeps its files after the ones kept before. */
    void closeAndKeep(RollingDataWriter<Record> writer) throws IOException {
      try {
        writer.close();
      } finally {
        closedFiles.addAll(resultOrEmpty(writer::result));
      }
    }

    @Override
    public void close() throws IOException {
      this.closed = true;
      RollingDataWriter<Record> open = current;
      current = null;
      if (open != null) {
        closeAndKeep(open);
      }
    }

    @Override
    public List<DataFile> dataFiles() {
      return closedFiles;
    }

    @Override
    public List<DataFile> writtenSoFar() {
      return closed ? new ArrayList<>(closedFiles) : List.of();
    }
  }

  final class Partitioned implements IcebergFileWriter {
    private final FanoutDataWriter<Record> delegate;
    private final PartitionSpec spec;
    private boolean closed;

    Partitioned(FanoutDataWriter<Record> delegate, PartitionSpec spec) {
      this.delegate = delegate;
      this.spec = spec;
    }

    @Override
    public void write(Record record, PartitionKey partition) {
      delegate.write(record, spec, partition);
    }

    @Override
    public void close() throws IOException {
      this.closed = true;
      delegate.close();
    }

    @Override
    public List<DataFile> dataFiles() {
      return delegate.result().dataFiles();
    }

    @Override
    public List<DataFile> writtenSoFar() {
      return closed ? resultOrEmpty(delegate::result) : List.of();
    }
  }

  private static List<DataFile> resultOrEmpty(java.util.function.Supplier<DataWriteResult> result) {
    try {
      return new ArrayList<>(result.get().dataFiles());
    } catch (RuntimeException e) {
      return List.of();
    }
  }
}
