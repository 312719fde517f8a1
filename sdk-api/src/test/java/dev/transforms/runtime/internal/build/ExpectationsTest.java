package dev.transforms.runtime.internal.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.ExpectationFailedException;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.api.checks.Check;
import dev.transforms.api.checks.CheckContext;
import dev.transforms.api.checks.CheckOutcome;
import dev.transforms.api.checks.HasColumn;
import dev.transforms.api.checks.Level;
import dev.transforms.api.checks.NotNull;
import dev.transforms.api.checks.OutputCheck;
import dev.transforms.api.checks.PrimaryKey;
import dev.transforms.api.checks.RowCount;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.CheckResult;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.runtime.Counts;
import dev.transforms.testengine.IdTables;
import dev.transforms.testengine.TestInput;
import dev.transforms.testengine.TestOutput;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Data expectations are evaluated on what a transform staged, and a failing one stops the publication. */
public class ExpectationsTest {

  static final TableIdentifier SOURCE = TableIdentifier.of(Namespace.of("src"), "numbers");
  static final TableIdentifier OUT = TableIdentifier.of(Namespace.of("out"), "checked");

  @TempDir Path warehouse;
  BuildRunner runner;
  Catalog catalog;
  static volatile long[] written;

  @BeforeEach
  void setUp() {
    runner = new BuildRunner(TransformsConfig.embedded(warehouse));
    catalog = runner.catalogs().catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    IdTables.append(catalog.createTable(SOURCE, IdTables.SCHEMA), null, Map.of(), 1, 2, 3);
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  /** Counts the rows a custom check saw. */
  public static class AtMostTwoOdd implements OutputCheck {
    @Override
    public CheckOutcome check(CheckContext context) {
      List<Long> odd = IdTables.ids(context.table(), context.snapshotId()).stream().filter(id -> id % 2 != 0).toList();
      return odd.size() <= 2 ? CheckOutcome.pass()
          : CheckOutcome.fail(odd.size(), odd.stream().map(String::valueOf).toList(), "too many odd ids");
    }
  }

  /** Writes whatever the test says, under checks. */
  public static class Checked {
    @Transform(name = "checked")
    public void write(@TableInput("/src/numbers") TestInput in,
        @TableOutput("/out/checked") @PrimaryKey("id") @NotNull("id") @RowCount(min = 1, maxDropPercent = 50)
        @HasColumn(value = "id", type = "long") @Check(value = AtMostTwoOdd.class, level = Level.WARN)
        TestOutput out) {
      out.append(written);
    }
  }

  /** A check on a column the output does not have. */
  public static class MissingColumn {
    @Transform(name = "missing-column")
    public void write(@TableInput("/src/numbers") TestInput in,
        @TableOutput("/out/checked") @NotNull("customer_id") TestOutput out) {
      out.append(1);
    }
  }

  /** Runs a transform even when up to date: these tests change what it writes between builds by hand. */
  private TransformResult build(Class<?> type) {
    List<dev.transforms.runtime.spi.TransformSpec> specs = ReflectiveModels.transformsOf(type);
    return runner.run(BuildPlan.of(specs), BuildListener.NONE, new BuildOptions(java.util.Set.of(),
        java.util.Set.copyOf(specs.stream().map(dev.transforms.runtime.spi.TransformSpec::name).toList())))
        .results().get(0);
  }

  @Test
  void passingChecksPublishAndAreRecordedOnTheOutput() {
    written = new long[] {1, 2, 4};
    TransformResult result = build(Checked.class);
    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(result.checks()).extracting(CheckResult::check).containsExactly("primary key (id)", "not null (id)",
        "row count (at least 1, at most 50.0% fewer)", "column id long", "AtMostTwoOdd");
    assertThat(result.checks()).allMatch(c -> c.outcome() == CheckResult.Outcome.PASSED);
    assertThat(catalog.loadTable(OUT).properties()).containsEntry("transforms.checks.primary key (id)", "passed")
        .containsEntry("transforms.checks.AtMostTwoOdd", "passed");
  }

  @Test
  void aFailingCheckLeavesTheOutputExactlyAsItWasAndSaysWhy() {
    written = new long[] {1, 2, 4};
    build(Checked.class);
    Table before = catalog.loadTable(OUT);
    long snapshot = before.currentSnapshot().snapshotId();
    Map<String, String> properties = before.properties();

    written = new long[] {7, 7, 8};
    TransformResult result = build(Checked.class);

    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.error().orElseThrow()).isInstanceOf(ExpectationFailedException.class)
        .hasMessageContaining("Transform checked did not publish: 1 check failed")
        .hasMessageContaining("/out/checked: primary key (id) failed, 1 row violate");
    assertThat(result.checks()).filteredOn(CheckResult::blocks).extracting(CheckResult::check)
        .containsExactly("primary key (id)");
    Table after = catalog.loadTable(OUT);
    assertThat(after.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(after.properties()).isEqualTo(properties);
    assertThat(after.refs()).containsOnlyKeys("main");
    assertThat(IdTables.ids(after, null)).containsExactly(1L, 2L, 4L);
  }

  @Test
  void aWarningPublishesAndIsReportedAndRecorded() {
    written = new long[] {1, 3, 5, 6};
    TransformResult result = build(Checked.class);
    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    CheckResult warned = result.checks().get(4);
    assertThat(warned.outcome()).isEqualTo(CheckResult.Outcome.FAILED);
    assertThat(warned.blocks()).isFalse();
    assertThat(warned.describe()).isEqualTo("/out/checked: AtMostTwoOdd warned, 3 rows violate it (too many odd ids); "
        + "e.g. 1 | 3 | 5");
    assertThat(catalog.loadTable(OUT).properties()).containsEntry("transforms.checks.AtMostTwoOdd",
        "warned: 3 rows violate it");
    assertThat(IdTables.ids(catalog.loadTable(OUT), null)).containsExactly(1L, 3L, 5L, 6L);
  }

  @Test
  void aRelativeRowCountComparesWithThePublishedVersion() {
    written = new long[] {1, 2, 4, 6};
    build(Checked.class);
    written = new long[] {8};
    TransformResult result = build(Checked.class);
    // Appended to the four published rows: five rows, so no drop; a drop needs a full rewrite.
    assertThat(result.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
  }

  @Test
  void aCheckOnAMissingColumnFailsNamingTheColumnAndTheColumnsThereAre() {
    TransformResult result = build(MissingColumn.class);
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.checks()).singleElement().satisfies(c -> {
      assertThat(c.outcome()).isEqualTo(CheckResult.Outcome.ERROR);
      assertThat(c.detail()).isEqualTo("column customer_id is not in the output; its columns: [id]");
    });
    assertThat(catalog.tableExists(OUT)).isFalse();
  }
}
