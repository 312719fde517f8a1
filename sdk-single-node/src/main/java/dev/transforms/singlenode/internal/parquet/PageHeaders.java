package dev.transforms.singlenode.internal.parquet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageHeader;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageType;
import org.apache.iceberg.shaded.org.apache.parquet.format.Util;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * Page headers and bodies one after another in the bytes of a column chunk, walked header by header:
 * the pages of a chunk found without its offset index, which pyarrow (so PyIceberg) and DuckDB do not
 * write. {@link #of} walks a chunk in a file, reading only its headers; an instance walks bytes read.
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
    ByteArrayInputStream in = new ByteArrayInputStream(bytes, position, end - position);
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

  /**
   * One page of a chunk.
   *
   * @param offset where its header starts in the file
   * @param headerLength the header's bytes
   * @param firstRow its first row in the row group (a data page's); for a dictionary page, 0
   */
  record Page(long offset, int headerLength, PageHeader header, long firstRow) {
    /** The header's and the body's bytes. */
    int length() {
      return headerLength + header.getCompressed_page_size();
    }

    /** The rows of a data page of a flat column; 0 for any other page. */
    long rows() {
      return header.getType() == PageType.DATA_PAGE ? header.getData_page_header().getNum_values()
          : header.getType() == PageType.DATA_PAGE_V2 ? header.getData_page_header_v2().getNum_rows() : 0;
    }
  }

  /**
   * Every page of a column chunk of a flat column, its dictionary first, read header by header (a
   * header is read into a small buffer, grown when the header is larger: statistics make it so).
   *
   * @return the pages, in the file's order
   * @throws IOException if the file cannot be read, or a page runs past the chunk
   */
  static List<Page> of(FileBytes file, ColumnChunkMetaData chunk) throws IOException {
    long position = chunk.hasDictionaryPage() && chunk.getDictionaryPageOffset() > 0
        ? Math.min(chunk.getDictionaryPageOffset(), chunk.getFirstDataPageOffset()) : chunk.getFirstDataPageOffset();
    long end = chunk.getStartingPos() + chunk.getTotalSize();
    List<Page> pages = new ArrayList<>();
    long row = 0;
    while (position < end) {
      PageHeader header = null;
      int headerLength = 0;
      for (int room = (int) Math.min(256, end - position); header == null; room = (int) Math.min(end - position,
          8L * room)) {
        ByteArrayInputStream in = new ByteArrayInputStream(file.read(position, room));
        try {
          header = Util.readPageHeader(in);
          headerLength = room - in.available();
        } catch (IOException e) {
          if (room >= end - position) {
            throw e;
          } // else the header is longer than the bytes read (statistics make it so): read more
        }
      }
      Page page = new Page(position, headerLength, header, row);
      if (header.getCompressed_page_size() < 0 || position + page.length() > end) {
        throw new IOException("A page of " + header.getCompressed_page_size() + " bytes at " + position
            + " runs past column chunk " + chunk.getPath());
      }
      pages.add(page);
      row += page.rows();
      position += page.length();
    }
    return pages;
  }
}
