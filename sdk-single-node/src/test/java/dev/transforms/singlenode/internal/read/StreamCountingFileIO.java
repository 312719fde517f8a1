package dev.transforms.singlenode.internal.read;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * Hadoop's file IO, remembering every input stream it opens until it is closed, so that a test can
 * fail when a read leaves one open. Catalogs load it by name: set the catalog property {@code
 * io-impl} to this class.
 *
 * <p>Iceberg's own {@code HadoopStreams} only warns when the garbage collector finds such a stream,
 * late and not at all in a short run; this makes the check exact and immediate.
 */
public class StreamCountingFileIO extends HadoopFileIO {
  private static final long serialVersionUID = 1L;

  /** The streams opened and not closed yet, each with where it was opened. */
  private static final Map<SeekableInputStream, Throwable> OPEN = new ConcurrentHashMap<>();

  /** Loaded by a catalog through its {@code io-impl} property. */
  public StreamCountingFileIO() {}

  /** Where each stream still open was opened; empty when every stream was closed. */
  public static List<Throwable> openStreams() {
    return new ArrayList<>(OPEN.values());
  }

  /** Forgets the streams open now, so that a test starts counting from zero. */
  public static void forgetOpenStreams() {
    OPEN.clear();
  }

  @Override
  public InputFile newInputFile(String path) {
    return new Counted(super.newInputFile(path));
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return new Counted(super.newInputFile(path, length));
  }

  private static final class Counted implements InputFile {
    private final InputFile file;

    private Counted(InputFile file) {
      this.file = file;
    }

    @Override
    public long getLength() {
      return file.getLength();
    }

    @Override
    public SeekableInputStream newStream() {
      SeekableInputStream stream = file.newStream();
      SeekableInputStream counted =
          new SeekableInputStream() {
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

            @Override
            public long skip(long count) throws IOException {
              return stream.skip(count);
            }

            @Override
            public int available() throws IOException {
              return stream.available();
            }

            @Override
            public void close() throws IOException {
              OPEN.remove(this);
              stream.close();
            }
          };
      OPEN.put(counted, new Throwable("Input stream of " + file.location() + " opened here"));
      return counted;
    }

    @Override
    public String location() {
      return file.location();
    }

    @Override
    public boolean exists() {
      return file.exists();
    }
  }
}
