package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.shaded.org.apache.parquet.io.PositionOutputStream;

/**
 * An Iceberg output file as Parquet's writer takes one, so that a file is written wherever the table's
 * {@code FileIO} writes: the local file system, object storage. The file must not exist yet.
 */
final class IcebergParquetOutput implements org.apache.iceberg.shaded.org.apache.parquet.io.OutputFile {
  private final OutputFile file;
  private volatile long length = -1;

  IcebergParquetOutput(OutputFile file) {
    this.file = file;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) {
    return wrap(file.create());
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) {
    return wrap(file.createOrOverwrite());
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }

  @Override
  public String getPath() {
    return file.location();
  }

  /**
   * The length of the file once its stream is closed.
   *
   * @return the bytes written
   * @throws IllegalStateException if the stream is not closed yet
   */
  long length() {
    if (length < 0) {
      throw new IllegalStateException(file.location() + " is not written yet");
    }
    return length;
  }

  private PositionOutputStream wrap(org.apache.iceberg.io.PositionOutputStream stream) {
    return new PositionOutputStream() {
      @Override
      public long getPos() throws IOException {
        return stream.getPos();
      }

      @Override
      public void write(int b) throws IOException {
        stream.write(b);
      }

      @Override
      public void write(byte[] bytes, int offset, int length) throws IOException {
        stream.write(bytes, offset, length);
      }

      @Override
      public void flush() throws IOException {
        stream.flush();
      }

      @Override
      public void close() throws IOException {
        long written = stream.getPos();
        stream.close();
        length = written;
      }
    };
  }
}
