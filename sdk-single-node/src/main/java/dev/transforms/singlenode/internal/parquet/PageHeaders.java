package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageHeader;
import org.apache.iceberg.shaded.org.apache.parquet.format.Util;

/**
 * Page headers and bodies one after another in the bytes of a column chunk, walked header by header:
 * the pages of a chunk found without its offset index.
 */
final class PageHeaders {
  final byte[] bytes;
  private int position;
  private final int end;

  PageHeaders(byte[] bytes, int position, int end) {
    this.bytes = bytes;
    this.position = position;
    this.end = end;
  }

  boolean more() {
    return position < end;
  }

  PageHeader header() throws IOException {
    java.io.ByteArrayInputStream in = new java.io.ByteArrayInputStream(bytes, position, end - position);
    PageHeader header = Util.readPageHeader(in);
    position = end - in.available();
    return header;
  }

  /** Moves past the page's body; returns where it starts in {@link #bytes}. */
  int body(PageHeader header) throws IOException {
    int size = header.getCompressed_page_size();
    if (size < 0 || position + size > end) {
      throw new IOException("A page of " + size + " bytes runs past its column chunk");
    }
    int at = position;
    position += size;
    return at;
  }
}
