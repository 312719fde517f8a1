package dev.transforms.singlenode.internal.parquet;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A local file's bytes, read where they lie: positional reads of one open channel, from any thread. */
final class LocalFileBytes extends FileBytes {
  private final Path path;
  private final String location;
  private final FileChannel channel;
  private final long length;

  LocalFileBytes(Path path, String location) throws IOException {
    this.path = path;
    this.location = location;
    this.channel = FileChannel.open(path, StandardOpenOption.READ);
    this.length = channel.size();
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
  public void readFully(long position, byte[] into, int offset, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(into, offset, length);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, position + buffer.position() - offset) < 0) {
        throw new EOFException("Unexpected end of " + path + " at " + (position + buffer.position() - offset));
      }
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
