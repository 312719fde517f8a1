package dev.transforms.singlenode.internal.parquet;

import dev.transforms.singlenode.internal.threads.FetchThreads;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.io.IOUtil;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * The bytes of a file that is not local, read through the table's {@code FileIO} in ranges fetched ahead
 * of the reads: as Arrow C++ reads for PyIceberg, the column chunks a read needs are asked for at once
 * ({@link #willRead}), ranges a small gap apart are merged into one request, large ones are cut into
 * parts fetched side by side on the {@link FetchThreads}, and the footer's end comes with the first
 * request. A read waits for the ranges it covers only; one outside every fetched range is a request of
 * its own. The ranges are held on the heap until the bytes are closed.
 */
final class FetchedFileBytes extends FileBytes {

  /** The end of the file fetched first: the footer, and usually the page indexes before it. */
  static final int TAIL = 64 * 1024;

  /** Ranges at most this far apart are fetched as one: a gap costs less than a request's latency. */
  static final long GAP = 1 << 20;

  /** A request asks for at most this many bytes; a larger range is cut into parts fetched at once. */
  static final int PART = 8 << 20;

  private static final AtomicLong REQUESTS = new AtomicLong();

  private final InputFile file;
  private final String location;
  private final long length;
  /** The fetched and fetching ranges, by start; guarded by this. */
  private final List<Segment> segments = new ArrayList<>();
  private volatile boolean closed;

  private record Segment(long start, int length, CompletableFuture<byte[]> bytes) {
    long end() {
      return start + length;
    }
  }

  FetchedFileBytes(InputFile file, String location, long length) {
    this.file = file;
    this.location = location;
    this.length = length;
    int tail = (int) Math.min(TAIL, length);
    if (tail > 0) {
      add(length - tail, tail);
    }
  }

  /** Requests made in this JVM, for tests and benchmarks that count them. */
  static long requests() {
    return REQUESTS.get();
  }

  @Override
  public String location() {
    return location;
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public void willRead(List<long[]> ranges) {
    List<long[]> sorted = new ArrayList<>();
    for (long[] range : ranges) {
      long start = Math.max(0, range[0]);
      long end = Math.min(length, range[1]);
      if (start < end) {
        sorted.add(new long[] {start, end});
      }
    }
    sorted.sort(Comparator.comparingLong(r -> r[0]));
    List<long[]> merged = new ArrayList<>();
    for (long[] range : sorted) {
      long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && range[0] <= last[1] + GAP) {
        last[1] = Math.max(last[1], range[1]);
      } else {
        merged.add(range.clone());
      }
    }
    synchronized (this) {
      for (long[] range : merged) {
        for (long[] missing : missing(range[0], range[1])) {
          for (long at = missing[0]; at < missing[1]; at += PART) {
            add(at, (int) Math.min(PART, missing[1] - at));
          }
        }
      }
    }
  }

  @Override
  public void readFully(long position, byte[] into, int offset, int length) throws IOException {
    if (position < 0 || position + length > this.length) {
      throw new EOFException("Reading " + length + " bytes at " + position + " of " + location + ", which holds "
          + this.length);
    }
    long at = position;
    int done = 0;
    while (done < length) {
      Segment segment;
      long nextStart;
      synchronized (this) {
        segment = covering(at);
        nextStart = segment == null ? nextStart(at) : -1;
      }
      if (segment == null) { // not asked for ahead: read it now, up to the next fetched range
        int n = (int) Math.min(length - done, nextStart - at);
        fetchInto(at, into, offset + done, n);
        at += n;
        done += n;
        continue;
      }
      byte[] bytes = await(segment);
      int n = (int) Math.min(length - done, segment.end() - at);
      System.arraycopy(bytes, (int) (at - segment.start()), into, offset + done, n);
      at += n;
      done += n;
    }
  }

  @Override
  public void close() {
    closed = true;
    synchronized (this) {
      segments.forEach(segment -> segment.bytes().cancel(false));
      segments.clear();
    }
  }

  /** Starts fetching a range; the caller holds the lock. */
  private void add(long start, int length) {
    Segment segment = new Segment(start, length, FetchThreads.start(() -> {
      if (closed) {
        throw new CancellationException("closed");
      }
      byte[] bytes = new byte[length];
      try {
        fetchInto(start, bytes, 0, length);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return bytes;
    }));
    int at = 0;
    while (at < segments.size() && segments.get(at).start() < start) {
      at++;
    }
    segments.add(at, segment);
  }

  /** The parts of {@code [start, end)} no segment holds; the caller holds the lock. */
  private List<long[]> missing(long start, long end) {
    List<long[]> missing = new ArrayList<>();
    long at = start;
    for (Segment segment : segments) {
      if (segment.end() <= at) {
        continue;
      }
      if (segment.start() >= end) {
        break;
      }
      if (segment.start() > at) {
        missing.add(new long[] {at, segment.start()});
      }
      at = Math.max(at, segment.end());
    }
    if (at < end) {
      missing.add(new long[] {at, end});
    }
    return missing;
  }

  private Segment covering(long position) {
    for (Segment segment : segments) {
      if (segment.start() <= position && position < segment.end()) {
        return segment;
      }
    }
    return null;
  }

  private long nextStart(long position) {
    long next = length;
    for (Segment segment : segments) {
      if (segment.start() > position) {
        next = Math.min(next, segment.start());
      }
    }
    return next;
  }

  private byte[] await(Segment segment) throws IOException {
    try {
      return segment.bytes().join();
    } catch (CompletionException | CancellationException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof UncheckedIOException io) {
        throw io.getCause();
      }
      throw new IOException("Cannot read " + segment.length() + " bytes at " + segment.start() + " of " + location,
          cause);
    }
  }

  /** One request: the bytes at a position, by a ranged read where the stream offers one. */
  private void fetchInto(long position, byte[] into, int offset, int length) throws IOException {
    REQUESTS.incrementAndGet();
    try (SeekableInputStream stream = file.newStream()) {
      if (stream instanceof RangeReadable ranges) {
        ranges.readFully(position, into, offset, length);
      } else {
        stream.seek(position);
        IOUtil.readFully(stream, into, offset, length);
      }
    }
  }
}
