package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.parquet.PageCopyRewrite;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Copy-on-write by copying the pages that hold no dropped row and re-encoding the others: every check
 * of {@link RowEditsDuckDbRewriteTest} (the same rows in the same order, the metrics Iceberg's writer
 * gives the kept rows, field ids). Its upsert drops rows from nearly every page, so here every page
 * that holds one is re-encoded (the share of touched pages allowed is raised to all of them): every
 * column type's values and levels go through the re-encoding. Where page copy declines (too many pages
 * touched, another codec or schema) is tested on files alone in {@code PageCopyRewriteTest}.
 */
class RowEditsPageCopyRewriteTest extends RowEditsDuckDbRewriteTest {

  private double share;

  @Override
  protected RewritePath rewritePath() {
    return RewritePath.PAGES_COPIED;
  }

  @BeforeEach
  void everyPageMayBeReencoded() {
    share = PageCopyRewrite.maxTouchedShare();
    PageCopyRewrite.maxTouchedShare(1.0);
  }

  @AfterEach
  void shareBack() {
    PageCopyRewrite.maxTouchedShare(share);
  }

  @Test
  void copiedPagesKeepTheirStatistics() throws IOException {
    PageCopyRewrite.maxTouchedShare(0.5); // the default: most pages are copied
    Table table = RowEditsTables.create(dir, "tail", SCHEMA, PartitionSpec.unpartitioned(), 2, false, Map.of());
    List<Record> seed = new ArrayList<>(ROWS);
    for (long id = 0; id < ROWS; id++) {
      seed.add(row(id, id % 7 == 0 ? null : "näme " + id));
    }
    RowEdits.on(table).append(seed);
    long before = RewritePlanner.rewrites(RewriteStrategy.PAGE_COPY);

    // the last rows only: the first pages, which hold every column's smallest values, are copied
    assertThat(RowEdits.on(table).delete("id >= " + (ROWS - 500))).isEqualTo(500);

    assertThat(RewritePlanner.rewrites(RewriteStrategy.PAGE_COPY)).isEqualTo(before + 1);
    table.refresh();
    List<DataFile> rewritten = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      tasks.forEach(t -> rewritten.add(t.file()));
    }
    assertThat(rewritten).hasSize(1);
    assertLikeIcebergsWriter(table, rewritten.get(0));

    // the copy has a page index of its own: the next edit copies its pages in turn
    assertThat(RowEdits.on(table).delete("id < 300")).isEqualTo(300);
    assertThat(RewritePlanner.rewrites(RewriteStrategy.PAGE_COPY)).isEqualTo(before + 2);
    table.refresh();
    rewritten.clear();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      tasks.forEach(t -> rewritten.add(t.file()));
    }
    assertThat(rewritten).hasSize(1);
    assertThat(rewritten.get(0).recordCount()).isEqualTo(ROWS - 800);
    assertLikeIcebergsWriter(table, rewritten.get(0));
  }

  @Test
  void pagesOfFormatVersionTwoAreDecodedInstead() {
    Table table = RowEditsTables.create(dir, "v2pages", SCHEMA, PartitionSpec.unpartitioned(), 2, false,
        Map.of(org.apache.iceberg.TableProperties.PARQUET_PAGE_VERSION, "v2"));
    List<Record> seed = new ArrayList<>(ROWS);
    for (long id = 0; id < ROWS; id++) {
      seed.add(row(id, id % 7 == 0 ? null : "näme " + id));
    }
    RowEdits.on(table).append(seed);
    long before = RewritePlanner.rewrites(RewriteStrategy.PAGE_COPY);

    assertThat(RowEdits.on(table).delete("id >= 7000 and id < 7100")).isEqualTo(100);

    assertThat(RewritePlanner.rewrites(RewriteStrategy.PAGE_COPY)).as("pages of version 2 are not copied").isEqualTo(before);
    List<Record> left = RowEditsTables.read(table);
    assertThat(left).hasSize(ROWS - 100);
    assertThat(left.stream().map(r -> (Long) r.getField("id")).toList()).isSorted().doesNotContain(7000L, 7099L);
    assertThat(left.stream().filter(r -> (Long) r.getField("id") == 7100L).findFirst().orElseThrow())
        .isEqualTo(row(7100, "näme 7100"));
  }
}
