package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.ExpectationFailedException;
import dev.transforms.api.Incremental;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.api.checks.AllowedValues;
import dev.transforms.api.checks.Level;
import dev.transforms.api.checks.NotNull;
import dev.transforms.api.checks.PrimaryKey;
import dev.transforms.api.checks.RowCount;
import dev.transforms.api.checks.Satisfies;
import dev.transforms.api.checks.ValueRange;
import dev.transforms.runtime.CheckResult;
import dev.transforms.runtime.TransformResult;
import org.junit.jupiter.api.Test;

/** Data expectations on Spark outputs, evaluated on the staging branch before publication. */
public class ExpectationsTest extends SparkTestBase {

  static final String IN = "/Expect/in/payments";
  static final String OUT = "/Expect/out/payments";

  /** Copies the input under checks. */
  public static class Checked {
    @Transform(name = "checked")
    public void copy(@TableInput(IN) TableTransformInput in,
        @TableOutput(OUT) @PrimaryKey("id") @NotNull("status")
        @AllowedValues(column = "status", values = {"open", "paid"})
        @ValueRange(column = "amount", min = "0", max = "100.00") @Satisfies("amount > 0 OR status = 'open'")
        @RowCount(min = 1) @AllowedValues(column = "currency", values = "EUR", level = Level.WARN)
        TableTransformOutput out) {
      out.writeDataFrame(in.dataframe());
    }
  }

  /** Appends the new rows under a primary key. */
  public static class Appending {
    @Transform(name = "appending")
    @Incremental
    public void copy(@TableInput(IN) IncrementalTransformInput in, @TableOutput(OUT) @PrimaryKey("id")
        @NotNull("status") TableTransformOutput out) {
      out.writeDataFrame(in.dataframe());
    }
  }

  /** A predicate that names a column the output lacks. */
  public static class BadPredicate {
    @Transform(name = "bad-predicate")
    public void copy(@TableInput(IN) TableTransformInput in, @TableOutput(OUT) @Satisfies("no_such_column > 0")
        TableTransformOutput out) {
      out.writeDataFrame(in.dataframe());
    }
  }

  private void seed(String... rows) {
    createTable(IN, "id BIGINT, status STRING, amount DECIMAL(10,2), currency STRING", rows);
  }

  @Test
  void passingChecksPublishAndAWarningIsReported() {
    seed("1, 'open', 0, 'EUR'", "2, 'paid', 12.50, 'USD'");
    TransformResult result = only(build(Checked.class));
    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(result.checks()).filteredOn(c -> c.outcome() != CheckResult.Outcome.PASSED).singleElement()
        .satisfies(c -> {
          assertThat(c.check()).isEqualTo("currency in [EUR]");
          assertThat(c.violations()).isEqualTo(1);
          assertThat(c.examples()).singleElement().asString().contains("USD");
        });
    assertThat(rows(OUT)).hasSize(2);
    assertThat(table(OUT).properties()).containsEntry("transforms.checks.primary key (id)", "passed")
        .containsEntry("transforms.checks.currency in [EUR]", "warned: 1 row violates it");
  }

  @Test
  void eachFailingCheckIsCountedWithExamplesAndNothingIsPublished() {
    seed("1, 'open', 0, 'EUR'", "1, 'paid', 5, 'EUR'", "2, NULL, 5, 'EUR'", "3, 'lost', 500, 'EUR'",
        "4, 'paid', 0, 'EUR'");
    TransformResult result = only(build(Checked.class));
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.error().orElseThrow()).isInstanceOf(ExpectationFailedException.class)
        .hasMessageContaining("/Expect/out/payments: primary key (id) failed, 2 rows violate it");
    assertThat(result.checks()).extracting(CheckResult::check, CheckResult::violations).containsExactly(
        org.assertj.core.groups.Tuple.tuple("primary key (id)", 2L),
        org.assertj.core.groups.Tuple.tuple("not null (status)", 1L),
        // Java gathers repeated annotations where the first one stands: both @AllowedValues come together.
        org.assertj.core.groups.Tuple.tuple("status in [open, paid]", 1L),
        org.assertj.core.groups.Tuple.tuple("currency in [EUR]", 0L),
        org.assertj.core.groups.Tuple.tuple("0 <= amount <= 100.00", 1L),
        org.assertj.core.groups.Tuple.tuple("amount > 0 OR status = 'open'", 1L),
        org.assertj.core.groups.Tuple.tuple("row count (at least 1)", 0L));
    assertThat(result.checks().get(0).examples()).singleElement().asString().isEqualTo("[1,2]");
    assertThat(result.checks().get(2).examples()).singleElement().asString().contains("lost");
    // The output was created empty on main for this first build, and dropped when the build failed.
    assertThat(runner.catalog("local").tableExists(resolved(OUT).identifier())).isFalse();
  }

  @Test
  void anIncrementalBuildChecksTheAppendedRowsAndTheirKeysAgainstThePublishedOnes() {
    seed("1, 'open', 1, 'EUR'", "2, 'paid', 2, 'EUR'");
    assertThat(only(build(Appending.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    long published = mainSnapshot(OUT);

    insert(IN, "2, 'paid', 3, 'EUR'", "3, NULL, 4, 'EUR'");
    TransformResult result = only(build(Appending.class));

    assertThat(result.incremental()).isTrue();
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.checks()).as(String.valueOf(result.error())).extracting(CheckResult::violations)
        .containsExactly(2L, 1L);
    assertThat(result.checks().get(0).examples()).singleElement().asString().isEqualTo("[2,2]");
    assertThat(mainSnapshot(OUT)).isEqualTo(published);
    assertThat(rows(OUT)).hasSize(2);
  }

  @Test
  void aPredicateThatCannotBeEvaluatedFailsTheCheckNamingWhy() {
    seed("1, 'open', 1, 'EUR'");
    TransformResult result = only(build(BadPredicate.class));
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.checks()).singleElement().satisfies(c -> {
      assertThat(c.outcome()).isEqualTo(CheckResult.Outcome.ERROR);
      assertThat(c.detail()).startsWith("cannot evaluate it:").contains("no_such_column");
    });
  }
}
