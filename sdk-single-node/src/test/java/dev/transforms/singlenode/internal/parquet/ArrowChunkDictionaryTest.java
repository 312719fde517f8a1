package dev.transforms.singlenode.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.format.DictionaryPageHeader;
import org.apache.iceberg.shaded.org.apache.parquet.format.Encoding;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageHeader;
import org.apache.iceberg.shaded.org.apache.parquet.format.PageType;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.iceberg.shaded.org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dictionary page is decoded from the bytes the file holds, whatever its header claims: a header that
 * overstates the page's size and its number of values, in an uncompressed file, fails with the error that
 * names the column and the file, not with an index out of the page's bounds.
 */
class ArrowChunkDictionaryTest {

  @TempDir Path dir;

  private static final ColumnDescriptor SMALL = new ColumnDescriptor(new String[] {"small"},
      Types.required(PrimitiveTypeName.INT32).named("small"), 0, 0);

  /** An uncompressed dictionary page of {@code values} ints whose header claims {@code claimed} of them. */
  private ArrowChunk.Dictionary decode(int values, int claimed) throws Exception {
    Path file = Files.write(dir.resolve("part-0.parquet"), new byte[] {'P', 'A', 'R', '1'});
    ByteBuffer page = ByteBuffer.allocate(4 * values).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < values; i++) {
      page.putInt(i * 10 - 7);
    }
    PageHeader header = new PageHeader(PageType.DICTIONARY_PAGE, 4 * claimed, 4 * values);
    header.setDictionary_page_header(new DictionaryPageHeader(claimed, Encoding.PLAIN));
    try (FileBytes bytes = FileBytes.local(file)) {
      ArrowChunk chunk = new ArrowChunk(bytes, SMALL, ArrowChunk.Kind.FOUR, CompressionCodecName.UNCOMPRESSED, 0,
          4L * values, 1.0);
      return ArrowChunk.Dictionary.of(header, page.array(), 0, chunk, new ArrowColumnPages.Buffers());
    }
  }

  @Test
  void aHeaderThatTellsTheTruthIsDecoded() throws Exception {
    ArrowChunk.Dictionary dictionary = decode(100, 100);

    assertThat(dictionary.size()).isEqualTo(100);
    assertThat(dictionary.values()[0]).isEqualTo(-7);
    assertThat(dictionary.values()[99]).isEqualTo(983);
  }

  @Test
  void aHeaderThatOverstatesThePageFailsNamingTheColumnAndFile() {
    assertThatThrownBy(() -> decode(100, 200)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("The dictionary of column [small]").hasMessageContaining("part-0.parquet")
        .hasMessageContaining("holds fewer bytes than its 200 values");
  }
}
