package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.arrowcpp.ArrowDatasetRead;
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
  protected RewritePath rewritePath() {
    return RewritePath.ARROW_CPP_DECODES;
  }

  @Test
  void aFileWrittenBeforeAColumnWasAddedIsDecodedByDuckDb() {
    assertThat(rewritesOfAFileWithoutANewColumn(() -> RewritePlanner.rewrites(RewriteStrategy.ARROW_CPP_DECODE)))
        .as("Arrow C++ finds no 'note' in the file").isZero();
  }
}
