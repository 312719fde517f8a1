package dev.transforms.singlenode.internal.load;

import dev.transforms.api.InvalidLoadException;
import dev.transforms.runtime.internal.load.SourceFile;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.zip.GZIPInputStream;

/** Opens a text file for reading: counted for progress, decompressed if gzipped, strict UTF-8. */
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
        throw new InvalidLoadException("File " + file + " ends with .gz but is not gzip-compressed: " + e.getMessage(), e);
      }
    }
    Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
    return new Opened(counted, reader);
  }
}
