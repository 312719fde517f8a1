package dev.transforms.singlenode.internal.load;

import dev.transforms.api.InvalidLoadException;
import dev.transforms.runtime.spi.SourceFile;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Opens a text file for reading: counted for progress, decompressed if gzipped, strict UTF-8. A byte
 * that is not UTF-8 fails the read with an {@link InvalidLoadException} naming the file, the line and
 * the byte; a gzipped file that is cut short or corrupt, with one saying so.
 */
final class TextFiles {
  private TextFiles() {}

  /** The counting stream under the reader, and the reader. */
  record Opened(CountingInputStream counted, Reader reader) {}

  static Opened open(SourceFile file) throws IOException {
    CountingInputStream counted = new CountingInputStream(Files.newInputStream(file.path()));
    InputStream in = new BufferedInputStream(counted, 1 << 16);
    if (file.gzipped()) {
      try {
        in = new GZIPInputStream(in, 1 << 16);
      } catch (IOException e) {
        in.close();
        // A file shorter than gzip's header fails with an EOFException without a message.
        throw new InvalidLoadException("File " + file + " ends with .gz but is not gzip-compressed: "
            + (e.getMessage() == null ? "it ends before a gzip header would" : e.getMessage()), e);
      }
    }
    return new Opened(counted, new StrictReader(file, in));
  }

  /** UTF-8 text that fails, naming the file, line and byte, at the first byte that is not UTF-8. */
  private static final class StrictReader extends Reader {
    private final SourceFile file;
    private final Reader decoded;

    StrictReader(SourceFile file, InputStream in) {
      this.file = file;
      this.decoded = new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
    }

    @Override
    public int read(char[] buffer, int offset, int length) throws IOException {
      try {
        return decoded.read(buffer, offset, length);
      } catch (CharacterCodingException e) {
        // The decoder's own message ("Input length = 1") says nothing a user can act on.
        throw notUtf8(file);
      } catch (ZipException | EOFException e) {
        if (!file.gzipped()) {
          throw e;
        }
        throw new InvalidLoadException("File " + file + " is not a complete gzip file (" + e.getMessage()
            + "): it was cut short or is corrupt; compress it again", e);
      }
    }

    @Override
    public void close() throws IOException {
      decoded.close();
    }
  }

  /** The error of a file that is not UTF-8, with the line and byte of the first byte at fault. */
  static InvalidLoadException notUtf8(SourceFile file) {
    Optional<String> where = firstBadByte(file);
    return new InvalidLoadException("File " + file + " is not UTF-8 text" + where.map(w -> ": " + w).orElse("")
        + "; save it as UTF-8 (from Latin-1, say: iconv -f latin1 -t utf-8 " + file.path().getFileName()
        + " > utf8-" + file.path().getFileName() + ")");
  }

  /**
   * Where the first byte that is not UTF-8 sits, as {@code line N, byte B of the line (0xHH)}: the file
   * is read again from its start, which costs a pass only when the load fails anyway.
   */
  static Optional<String> firstBadByte(SourceFile file) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(file.path()), 1 << 16);
        InputStream in = file.gzipped() ? new GZIPInputStream(raw, 1 << 16) : raw) {
      ByteBuffer bytes = ByteBuffer.allocate(1 << 16);
      CharBuffer chars = CharBuffer.allocate(1 << 16);
      long line = 1;
      long lineStart = 0;
      long consumed = 0;
      boolean end = false;
      while (true) {
        if (!end) {
          int n = in.read(bytes.array(), bytes.position(), bytes.remaining());
          if (n < 0) {
            end = true;
          } else {
            bytes.position(bytes.position() + n);
          }
        }
        bytes.flip();
        CoderResult result = decoder.decode(bytes, chars, end);
        for (int i = 0; i < bytes.position(); i++) {
          if (bytes.get(i) == '\n') {
            line++;
            lineStart = consumed + i + 1;
          }
        }
        if (result.isError()) {
          long offset = consumed + bytes.position();
          int value = bytes.get(bytes.position()) & 0xff;
          return Optional.of("line " + line + ", byte " + (offset - lineStart + 1) + " of the line (0x"
              + Integer.toHexString(value).toUpperCase(Locale.ROOT) + ")" + (file.gzipped() ? ", decompressed" : ""));
        }
        chars.clear();
        consumed += bytes.position();
        bytes.compact();
        if (end && result.isUnderflow()) {
          return Optional.empty();
        }
      }
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
