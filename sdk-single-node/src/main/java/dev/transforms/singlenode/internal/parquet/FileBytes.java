package dev.transforms.singlenode.internal.parquet;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.shaded.org.apache.parquet.io.InputFile;
import org.apache.iceberg.shaded.org.apache.parquet.io.SeekableInputStream;

/**
 * The bytes of one Parquet file as the page decoder and the page copy read them: by position, from any
 * thread. A local file is read where it lies ({@link LocalFileBytes}); a file anywhere else that an
 * Iceberg {@link FileIO} reaches (object storage, HDFS) is read in ranges, fetched ahead of the reads
 * several at once ({@link FetchedFileBytes}).
 *
 * <p>Closing releases what the bytes hold: an open file, or the fetched ranges.
 */
public abstract class FileBytes implements Closeable {

  /** Small reads (headers, Thrift structures) are served from a buffer of this many bytes. */
  private static final int STREAM_BUFFER = 8192;

  /**
   * Opens the bytes of a file: a local file directly, any other through the file IO.
   *
   * @param io the table's file IO
   * @param location the file's location, as the table names it
   * @param length the file's length in bytes, as the table records it
   * @return the bytes, the caller's to close
   * @throws IOException if a local file cannot be opened
   */
  public static FileBytes open(FileIO io, String location, long length) throws IOException {
    Optional<java.nio.file.Path> local = localPath(location);
    return local.isPresent() ? new LocalFileBytes(local.get(), location)
        : new FetchedFileBytes(io.newInputFile(location, length), location, length);
  }

  /**
   * The local path of a file location, when it is on the local file system, taken as written
   * ({@code Locations.localPath}, the one reading of locations).
   *
   * @param location a location ({@code /...}, {@code file:/...} or {@code file:///...})
   * @return the path, or empty for any other scheme
   */
  public static Optional<java.nio.file.Path> localPath(String location) {
    return dev.transforms.runtime.Locations.localPath(location);
  }

  /**
   * Opens a local file.
   *
   * @param path the file
   * @return the bytes, the caller's to close
   * @throws IOException if the file cannot be opened
   */
  public static FileBytes local(java.nio.file.Path path) throws IOException {
    return new LocalFileBytes(path, path.toString());
  }

  /**
   * The file's location, for messages.
   *
   * @return the location
   */
  public abstract String location();

  /**
   * The file's length.
   *
   * @return the length in bytes
   */
  public abstract long length();

  /**
   * Reads {@code length} bytes at {@code position} into {@code into} from {@code offset}.
   *
   * @throws EOFException if the file ends first
   * @throws IOException if the file cannot be read
   */
  public abstract void readFully(long position, byte[] into, int offset, int length) throws IOException;

  /**
   * Says which byte ranges will be read, so that a file elsewhere fetches them ahead, several at once;
   * a local file ignores it. Reads outside the ranges are still served, each its own request.
   *
   * @param ranges {@code {start, end}} pairs, end excluded, in any order
   */
  public void willRead(List<long[]> ranges) {}

  /**
   * Says that the column chunks of some columns will be read, in every row group: reads the footer and
   * asks for those chunks ({@link #willRead}).
   *
   * @param fieldIds the Iceberg field ids of the top-level columns
   * @throws IOException if the footer cannot be read
   */
  public void willReadColumns(java.util.Set<Integer> fieldIds) throws IOException {
    List<long[]> ranges = new java.util.ArrayList<>();
    try (org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader.open(parquetFile())) {
      var footer = reader.getFooter();
      var schema = footer.getFileMetaData().getSchema();
      java.util.Set<String> names = new java.util.HashSet<>();
      for (org.apache.iceberg.shaded.org.apache.parquet.schema.Type field : schema.getFields()) {
        if (field.getId() != null && fieldIds.contains(field.getId().intValue())) {
          names.add(field.getName());
        }
      }
      for (var group : footer.getBlocks()) {
        for (var chunk : group.getColumns()) {
          if (names.contains(chunk.getPath().toArray()[0])) {
            ranges.add(new long[] {chunk.getStartingPos(), chunk.getStartingPos() + chunk.getTotalSize()});
          }
        }
      }
    }
    willRead(ranges);
  }

  /**
   * The file as Iceberg's readers take it: its reads are served by these bytes, so that every reader
   * of the file shares what was fetched.
   *
   * @return the file; closing its streams leaves these bytes open
   */
  public org.apache.iceberg.io.InputFile icebergFile() {
    return new org.apache.iceberg.io.InputFile() {
      @Override
      public long getLength() {
        return length();
      }

      @Override
      public org.apache.iceberg.io.SeekableInputStream newStream() {
        SeekableInputStream stream = new Stream();
        return new org.apache.iceberg.io.SeekableInputStream() {
          @Override
          public long getPos() throws IOException {
            return stream.getPos();
          }

          @Override
          public void seek(long newPos) throws IOException {
            stream.seek(newPos);
          }

          @Override
          public int read() throws IOException {
            return stream.read();
          }

          @Override
          public int read(byte[] bytes, int offset, int length) throws IOException {
            return stream.read(bytes, offset, length);
          }
        };
      }

      @Override
      public String location() {
        return FileBytes.this.location();
      }

      @Override
      public boolean exists() {
        return true;
      }
    };
  }

  /**
   * Reads {@code length} bytes at {@code position} into a new array.
   *
   * @throws IOException if the file cannot be read
   */
  public byte[] read(long position, int length) throws IOException {
    byte[] bytes = new byte[length];
    readFully(position, bytes, 0, length);
    return bytes;
  }

  /**
   * The file as Parquet's reader takes it, for its footer and page indexes: a stream over these bytes
   * that serves small reads from a buffer.
   *
   * @return the file
   */
  public InputFile parquetFile() {
    return new InputFile() {
      @Override
      public long getLength() {
        return length();
      }

      @Override
      public SeekableInputStream newStream() {
        return new Stream();
      }

      @Override
      public String toString() {
        return location();
      }
    };
  }

  @Override
  public String toString() {
    return location();
  }

  /** A stream over the bytes, its position kept here, small reads served from a buffer. */
  private final class Stream extends SeekableInputStream {
    private final byte[] buffer = new byte[STREAM_BUFFER];
    private long bufferStart; // the file position of buffer[0]
    private int bufferLength;
    private long position;

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void seek(long newPos) {
      position = newPos;
    }

    @Override
    public int read() throws IOException {
      if (position >= length()) {
        return -1;
      }
      fill();
      return buffer[(int) (position++ - bufferStart)] & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
      if (length == 0) {
        return 0;
      }
      long left = length() - position;
      if (left <= 0) {
        return -1;
      }
      int n = (int) Math.min(length, left);
      readFully(into, offset, n);
      return n;
    }

    @Override
    public void readFully(byte[] into) throws IOException {
      readFully(into, 0, into.length);
    }

    @Override
    public void readFully(byte[] into, int offset, int length) throws IOException {
      if (position + length > length()) {
        throw new EOFException("Reached the end of " + location() + " reading " + length + " bytes at " + position);
      }
      if (length >= STREAM_BUFFER) {
        FileBytes.this.readFully(position, into, offset, length);
        position += length;
        return;
      }
      int done = 0;
      while (done < length) {
        fill();
        int at = (int) (position - bufferStart);
        int n = Math.min(length - done, bufferLength - at);
        System.arraycopy(buffer, at, into, offset + done, n);
        done += n;
        position += n;
      }
    }

    @Override
    public int read(ByteBuffer into) throws IOException {
      int length = into.remaining();
      if (length == 0) {
        return 0;
      }
      long left = length() - position;
      if (left <= 0) {
        return -1;
      }
      int n = (int) Math.min(length, left);
      byte[] bytes = new byte[n];
      readFully(bytes, 0, n);
      into.put(bytes);
      return n;
    }

    @Override
    public void readFully(ByteBuffer into) throws IOException {
      byte[] bytes = new byte[into.remaining()];
      readFully(bytes, 0, bytes.length);
      into.put(bytes);
    }

    /** Makes the buffer hold the byte at the position. */
    private void fill() throws IOException {
      if (position >= bufferStart && position < bufferStart + bufferLength) {
        return;
      }
      bufferStart = position;
      bufferLength = (int) Math.min(STREAM_BUFFER, length() - position);
      FileBytes.this.readFully(bufferStart, buffer, 0, bufferLength);
    }
  }
}
