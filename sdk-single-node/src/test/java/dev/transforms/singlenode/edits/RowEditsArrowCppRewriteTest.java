package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.transforms.singlenode.internal.sql.ArrowDatasetRead;
import dev.transforms.singlenode.internal.sql.DuckDbFileRewrite;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Copy-on-write of a large file by DuckDB with the file decoded by Arrow C++ (arrow-dataset): every
 * check of {@link RowEditsDuckDbRewriteTest} (the same rows in the same order, Iceberg's metrics,
 * field ids), and DuckDB's own reader where a column of the table is not in the file.
 */
class RowEditsArrowCppRewriteTest extends RowEditsDuckDbRewriteTest {

  @BeforeAll
  static void loadTheNativeLibrary() {
    assumeTrue(ArrowDatasetRead.awaitReady(), "Arrow C++'s reader loads on this platform");
  }

  @Override
  protected boolean decodedByArrowCpp() {
    return true;
  }

  @Test
  void aFileWrittenBeforeAColumnWasAddedIsDecodedByDuckDb() {
    Table table = seeded("widened");
    table.updateSchema().addColumn("note", Types.StringType.get()).commit();
    long before = DuckDbFileRewrite.arrowCppRewrites();

    long deleted = RowEdits.on(table).delete("id >= 7000 and id < 7100");

    assertThat(deleted).isEqualTo(100);
    assertThat(DuckDbFileRewrite.arrowCppRewrites()).as("Arrow C++ finds no 'note' in the file").isEqualTo(before);
    List<Record> left = RowEditsTables.read(table);
    assertThat(left).hasSize(ROWS - 50 - 100).allMatch(r -> r.getField("note") == null);
    assertThat(left.stream().map(r -> (Long) r.getField("id")).toList()).isSorted().doesNotContain(7000L, 7099L);
  }
}
