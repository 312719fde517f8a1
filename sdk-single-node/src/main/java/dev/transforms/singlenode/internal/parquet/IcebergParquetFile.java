package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.shaded.org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.iceberg.shaded.org.apache.parquet.io.SeekableInputStream;

/** An Iceberg input file as Parquet's. */
final class IcebergParquetFile
    implements org.apache.iceberg.shaded.org.apache.parquet.io.InputFile {
  private final InputFile file;

  IcebergParquetFile(InputFile file) {
    this.file = file;
  }

  @Override
  public long getLength() {
    return file.getLength();
  }

  @Override
  public SeekableInputStream newStream() {
    org.apache.iceberg.io.SeekableInputStream stream = file.newStream();
    return new DelegatingSeekableInputStream(stream) {
      @Override
      public long getPos() throws IOException {
        return stream.getPos();
      }

      @Override
      public void seek(long newPos) throws IOException {
        stream.seek(newPos);
      }
    };
  }
}
