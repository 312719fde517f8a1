package dev.transforms.singlenode.internal.plan;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * A file IO whose files are not local to the engine: locations {@code remote:///PATH}, kept as local
 * files at {@code PATH}, read only through streams that offer ranged reads as object storage's do
 * ({@link RangeReadable}). Requests are counted as a store would get them: each ranged read, and each
 * read of a stream that does not go on where its last read ended (a new GET from that position). A
 * table whose catalog uses it ({@code io-impl}) takes every path the SDK takes on object storage.
 */
public class RemoteLikeFileIO implements FileIO {

  /** The scheme of the locations. */
  public static final String SCHEME = "remote://";

  /** Requests to the "store", in this JVM. */
  public static final AtomicLong READS = new AtomicLong();

  @Override
  public void initialize(Map<String, String> properties) {}

  /**
   * The local file that holds a location.
   *
   * @param location {@code remote:///PATH}
   * @return the file at {@code PATH}
   */
  public static Path localPathOf(String location) {
    if (!location.startsWith(SCHEME)) {
      throw new IllegalArgumentException("Not a location of " + SCHEME + ": " + location);
    }
    return Path.of(location.substring(SCHEME.length()));
  }

  @Override
  public InputFile newInputFile(String location) {
    Path path = localPathOf(location);
    return new InputFile() {
      @Override
      public long getLength() {
        try {
          return Files.size(path);
        } catch (IOException e) {
          throw new org.apache.iceberg.exceptions.NotFoundException(e, "No such file: %s", location);
        }
      }

      @Override
      public SeekableInputStream newStream() {
        return new Stream(path);
      }

      @Override
      public String location() {
        return location;
      }

      @Override
      public boolean exists() {
        return Files.exists(path);
      }
    };
  }

  @Override
  public OutputFile newOutputFile(String location) {
    Path path = localPathOf(location);
    return new OutputFile() {
      @Override
      public PositionOutputStream create() {
        if (Files.exists(path)) {
          throw new org.apache.iceberg.exceptions.AlreadyExistsException("Already exists: %s", location);
        }
        return createOrOverwrite();
      }

      @Override
      public PositionOutputStream createOrOverwrite() {
        try {
          Files.createDirectories(path.getParent());
          java.io.OutputStream out = Files.newOutputStream(path);
          return new PositionOutputStream() {
            private long position;

            @Override
            public long getPos() {
              return position;
            }

            @Override
            public void write(int b) throws IOException {
              out.write(b);
              position++;
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
              out.write(bytes, offset, length);
              position += length;
            }

            @Override
            public void close() throws IOException {
              out.close();
            }
          };
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public String location() {
        return location;
      }

      @Override
      public InputFile toInputFile() {
        return newInputFile(location);
      }
    };
  }

  @Override
  public void deleteFile(String location) {
    try {
      Files.deleteIfExists(localPathOf(location));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A stream that reads the file one request at a time, and ranges without moving. */
  private static final class Stream extends SeekableInputStream implements RangeReadable {
    private final RandomAccessFile file;
    private long position;
    private long streamingFrom = -1; // where the open "GET" has got to; -1 before the first read

    /** Counts a request unless the read goes on where the last one ended. */
    private void request() {
      if (position != streamingFrom) {
        READS.incrementAndGet();
      }
    }

    Stream(Path path) {
      try {
        this.file = new RandomAccessFile(path.toFile(), "r");
      } catch (IOException e) {
        throw new org.apache.iceberg.exceptions.NotFoundException(e, "No such file: %s", path);
      }
    }

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
      request();
      file.seek(position);
      int b = file.read();
      if (b >= 0) {
        position++;
      }
      streamingFrom = position;
      return b;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
      request();
      file.seek(position);
      int n = file.read(bytes, offset, length);
      if (n > 0) {
        position += n;
      }
      streamingFrom = position;
      return n;
    }

    @Override
    public void readFully(long at, byte[] bytes, int offset, int length) throws IOException {
      READS.incrementAndGet();
      synchronized (file) {
        file.seek(at);
        file.readFully(bytes, offset, length);
      }
    }

    @Override
    public int readTail(byte[] bytes, int offset, int length) throws IOException {
      READS.incrementAndGet();
      synchronized (file) {
        int n = (int) Math.min(length, file.length());
        file.seek(file.length() - n);
        file.readFully(bytes, offset, n);
        return n;
      }
    }

    @Override
    public void close() throws IOException {
      file.close();
    }
  }

  /**
   * A warehouse folder's location under this scheme.
   *
   * @param folder a local folder
   * @return {@code remote:///FOLDER}
   */
  public static String location(File folder) {
    return SCHEME + folder.getAbsolutePath();
  }
}
