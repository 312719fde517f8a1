package dev.transforms.singlenode.internal.parquet;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.iceberg.shaded.org.apache.parquet.io.InputFile;
import org.apache.iceberg.shaded.org.apache.parquet.io.SeekableInputStream;

/**
 * A local file for Parquet's reader, read through a buffer.
 *
 * <p>Parquet's own {@code LocalInputFile} reads one byte per system call wherever Thrift decodes from
 * the stream, which is how {@code ParquetFileReader} reads a column chunk's offset and column
 * indexes: a few kilobytes of index took milliseconds. Here small reads are served from a buffer
 * of {@value #BUFFER} bytes, refilled at the position read; larger ones go to the file directly.
 */
final class BufferedLocalFile implements InputFile {

  private static final int BUFFER = 8192;

  private final Path path;

  BufferedLocalFile(Path path) {
    this.path = path;
  }

  @Override
  public long getLength() throws IOException {
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      return channel.size();
    }
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    return new Stream(FileChannel.open(path, StandardOpenOption.READ), path);
  }

  @Override
  public String toString() {
    return path.toString();
  }

  /** A stream over the file's channel, its position kept here and reads served from a buffer. */
  private static final class Stream extends SeekableInputStream {
    private final FileChannel channel;
    private final Path path; // for messages
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER).limit(0);
    private long bufferStart; // the file position of buffer[0]
    private long position;

    Stream(FileChannel channel, Path path) {
      this.channel = channel;
      this.path = path;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void seek(long newPos) {
      position = newPos;
    }

    /** Whether the position is in the buffer, after refilling it there if it was not. */
    private boolean fill() throws IOException {
      if (position >= bufferStart && position < bufferStart + buffer.limit()) {
        return true;
      }
      buffer.clear();
      bufferStart = position;
      while (buffer.hasRemaining()) {
        int read = channel.read(buffer, bufferStart + buffer.position());
        if (read < 0) {
          break;
        }
      }
      buffer.flip();
      return buffer.hasRemaining();
    }

    @Override
    public int read() throws IOException {
      if (!fill()) {
        return -1;
      }
      int value = buffer.get((int) (position - bufferStart)) & 0xFF;
      position++;
      return value;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
      return read(ByteBuffer.wrap(bytes, offset, length));
    }

    @Override
    public int read(ByteBuffer into) throws IOException {
      if (!into.hasRemaining()) {
        return 0;
      }
      if (into.remaining() >= BUFFER) {
        int read = channel.read(into, position);
        if (read > 0) {
          position += read;
        }
        return read;
      }
      if (!fill()) {
        return -1;
      }
      int at = (int) (position - bufferStart);
      int n = Math.min(into.remaining(), buffer.limit() - at);
      into.put(buffer.duplicate().position(at).limit(at + n));
      position += n;
      return n;
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
      readFully(bytes, 0, bytes.length);
    }

    @Override
    public void readFully(byte[] bytes, int start, int length) throws IOException {
      readFully(ByteBuffer.wrap(bytes, start, length));
    }

    @Override
    public void readFully(ByteBuffer into) throws IOException {
      while (into.hasRemaining()) {
        if (read(into) < 0) {
          throw new EOFException("Reached the end of " + path + " " + into.remaining() + " bytes early, at "
              + position);
        }
      }
    }

    @Override
    public long skip(long n) {
      position += Math.max(0, n);
      return Math.max(0, n);
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
