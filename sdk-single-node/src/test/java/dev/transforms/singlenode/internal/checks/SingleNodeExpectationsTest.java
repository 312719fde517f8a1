package dev.transforms.singlenode.internal.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

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
import dev.transforms.api.checks.Unique;
import dev.transforms.api.checks.ValueRange;
import dev.transforms.runtime.CheckResult;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import dev.transforms.singlenode.edits.RowEdits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data expectations on single-node outputs, evaluated by the engine's own reader on the staged
 * snapshot before publication: the same cases as the Spark engine's, and deletes.
 */
public class SingleNodeExpectationsTest {

  static final String IN = "/Expect/in/payments";
  static final String OUT = "/Expect/out/payments";
  static final TableIdentifier SOURCE = TableIdentifier.of(Namespace.of("Expect", "in"), "payments");
  static final TableIdentifier TARGET = TableIdentifier.of(Namespace.of("Expect", "out"), "payments");
  static final Schema SCHEMA = new Schema(
      Types.NestedField.optional(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "status", Types.StringType.get()),
      Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
      Types.NestedField.optional(4, "currency", Types.StringType.get()));

  @TempDir Path warehouse;
  Transforms runner;
  Catalog catalog;
  Table source;

  /** Copies the input under checks. */
  public static class Checked {
    @Transform(name = "checked")
    public void copy(@TableInput(IN) IcebergInput in,
        @TableOutput(OUT) @PrimaryKey("id") @NotNull("status")
        @AllowedValues(column = "status", values = {"open", "paid"})
        @ValueRange(column = "amount", min = "0", max = "100.00") @Satisfies("amount > 0 OR status = 'open'")
        @RowCount(min = 1) @AllowedValues(column = "currency", values = "EUR", level = Level.WARN)
        IcebergOutput out) {
      try (VectorSchemaRoot rows = in.arrow()) {
        out.writeTable(rows);
      }
    }
  }

  /** Appends the new rows under a primary key. */
  public static class Appending {
    @Transform(name = "appending")
    @Incremental
    public void copy(@TableInput(IN) IcebergInput in, @TableOutput(OUT) @PrimaryKey("id") @NotNull("status")
        IcebergOutput out) {
      try (VectorSchemaRoot rows = in.addedRows()) {
        out.writeTable(rows);
      }
    }
  }

  /** Deletes a row with a row edit after writing: checks see the live rows only. */
  public static class WritesThenDeletes {
    @Transform(name = "writes-then-deletes")
    public void copy(@TableInput(IN) IcebergInput in, @TableOutput(OUT) @Unique({"status", "currency"})
        @RowCount(min = 2, max = 2) IcebergOutput out) {
      try (VectorSchemaRoot rows = in.arrow()) {
        out.writeTable(rows);
      }
      Table table = out.table().orElseThrow();
      table.updateProperties().set(TableProperties.FORMAT_VERSION, "2")
          .set(TableProperties.DELETE_MODE, "merge-on-read").commit();
      RowEdits.on(table).delete("id = 3");
    }
  }

  /** A predicate that names a column the output lacks, and one that is not a filter string. */
  public static class BadPredicates {
    @Transform(name = "bad-predicates")
    public void copy(@TableInput(IN) IcebergInput in, @TableOutput(OUT) @Satisfies("no_such_column > 0")
        @Satisfies(value = "amount >>> 1", level = Level.WARN) IcebergOutput out) {
      try (VectorSchemaRoot rows = in.arrow()) {
        out.writeTable(rows);
      }
    }
  }

  @BeforeEach
  void setUp() {
    runner = Transforms.open(TransformsConfig.embedded(warehouse));
    catalog = runner.catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("Expect"));
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("Expect", "in"));
    source = catalog.createTable(SOURCE, SCHEMA, org.apache.iceberg.PartitionSpec.unpartitioned(),
        java.util.Map.of(TableProperties.FORMAT_VERSION, "2", TableProperties.DELETE_MODE, "merge-on-read"));
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  private void seed(Object[]... rows) {
    List<Record> records = new ArrayList<>();
    for (Object[] row : rows) {
      GenericRecord record = GenericRecord.create(SCHEMA);
      for (int i = 0; i < row.length; i++) {
        Object value = row[i] instanceof Number n && i == 2 ? new BigDecimal(n.toString()).setScale(2) : row[i];
        record.set(i, value);
      }
      records.add(record);
    }
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = ArrowRecords.toRoot(records, SCHEMA, allocator)) {
      AppendFiles append = source.newAppend();
      ArrowTableWriter.writeDataFiles(source, root).forEach(append::appendFile);
      append.commit();
    }
  }

  private static Object[] row(Object... values) {
    return values;
  }

  private TransformResult build(Class<?> transforms) {
    List<TransformResult> results = runner.build(transforms).results();
    assertThat(results).hasSize(1);
    return results.get(0);
  }

  private Table target() {
    return catalog.loadTable(TARGET);
  }

  private List<Record> rows(Table table) {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(rows::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  @Test
  void passingChecksPublishAndAWarningIsReported() {
    seed(row(1L, "open", 0, "EUR"), row(2L, "paid", 12.5, "USD"));
    TransformResult result = build(Checked.class);
    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(result.checks()).filteredOn(c -> c.outcome() != CheckResult.Outcome.PASSED).singleElement()
        .satisfies(c -> {
          assertThat(c.check()).isEqualTo("currency in [EUR]");
          assertThat(c.violations()).isEqualTo(1);
          assertThat(c.examples()).containsExactly("[2,paid,12.50,USD]");
        });
    assertThat(rows(target())).hasSize(2);
    assertThat(target().properties()).containsEntry("transforms.checks.primary key (id)", "passed")
        .containsEntry("transforms.checks.currency in [EUR]", "warned: 1 row violates it");
  }

  @Test
  void eachFailingCheckIsCountedWithExamplesAndNothingIsPublished() {
    seed(row(1L, "open", 0, "EUR"), row(1L, "paid", 5, "EUR"), row(2L, null, 5, "EUR"), row(3L, "lost", 500, "EUR"),
        row(4L, "paid", 0, "EUR"), row(null, "open", null, "EUR"));
    TransformResult result = build(Checked.class);
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.error().orElseThrow()).isInstanceOf(ExpectationFailedException.class)
        .hasMessageContaining("/Expect/out/payments: primary key (id) failed, 3 rows violate it");
    assertThat(result.checks()).extracting(CheckResult::check, CheckResult::violations).containsExactly(
        tuple("primary key (id)", 3L),
        tuple("not null (status)", 1L),
        tuple("status in [open, paid]", 1L),
        tuple("currency in [EUR]", 0L),
        tuple("0 <= amount <= 100.00", 1L),
        // 4 is paid with amount 0: false. The row of a null amount and status open is true; none unknown.
        tuple("amount > 0 OR status = 'open'", 1L),
        tuple("row count (at least 1)", 0L));
    // The null key is the primary key's first violation shown; duplicates of 1 come after in the count.
    assertThat(result.checks().get(0).examples()).containsExactly("[null,open,null,EUR]");
    assertThat(result.checks().get(2).examples()).containsExactly("[3,lost,500.00,EUR]");
    assertThat(result.checks().get(5).examples()).containsExactly("[4,paid,0.00,EUR]");
    // The output was created empty on main for this first build, and dropped when the build failed.
    assertThat(catalog.tableExists(TARGET)).isFalse();
  }

  @Test
  void duplicateKeysAreShownWithTheirCount() {
    seed(row(7L, "open", 1, "EUR"), row(7L, "paid", 2, "EUR"), row(7L, "open", 3, "EUR"), row(8L, "paid", 2, "EUR"));
    TransformResult result = build(Checked.class);
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.checks().get(0)).satisfies(c -> {
      assertThat(c.violations()).isEqualTo(3);
      assertThat(c.examples()).containsExactly("[7,3]");
    });
  }

  @Test
  void anIncrementalBuildChecksTheAppendedRowsAndTheirKeysAgainstThePublishedOnes() {
    seed(row(1L, "open", 1, "EUR"), row(2L, "paid", 2, "EUR"));
    assertThat(build(Appending.class).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    long published = target().currentSnapshot().snapshotId();

    seed(row(2L, "paid", 3, "EUR"), row(3L, null, 4, "EUR"));
    TransformResult result = build(Appending.class);

    assertThat(result.incremental()).isTrue();
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.checks()).extracting(CheckResult::violations).containsExactly(2L, 1L);
    assertThat(result.checks().get(0).examples()).containsExactly("[2,2]");
    assertThat(result.checks().get(1).examples()).containsExactly("[3,null,4.00,EUR]");
    Table target = target();
    assertThat(target.currentSnapshot().snapshotId()).isEqualTo(published);
    assertThat(rows(target)).hasSize(2);
  }

  @Test
  void checksReadTheLiveRowsOfAStagedTableWithDeletes() {
    seed(row(1L, "open", 1, "EUR"), row(2L, "paid", 2, "EUR"), row(3L, "open", 3, "EUR"));
    TransformResult result = build(WritesThenDeletes.class);
    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(result.checks()).extracting(CheckResult::outcome)
        .containsOnly(CheckResult.Outcome.PASSED);
    // The delete was written as a delete file: the checks applied it.
    assertThat(target().currentSnapshot().summary()).containsKey("total-position-deletes")
        .doesNotContainEntry("total-position-deletes", "0");
  }

  @Test
  void aPredicateThatCannotBeEvaluatedFailsTheCheckNamingWhy() {
    seed(row(1L, "open", 1, "EUR"));
    TransformResult result = build(BadPredicates.class);
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.checks()).hasSize(2).allSatisfy(c -> {
      assertThat(c.outcome()).isEqualTo(CheckResult.Outcome.ERROR);
      assertThat(c.detail()).startsWith("cannot evaluate it:");
    });
    assertThat(result.checks().get(0).detail()).contains("no_such_column");
    assertThat(catalog.tableExists(TARGET)).isFalse();
  }
}
