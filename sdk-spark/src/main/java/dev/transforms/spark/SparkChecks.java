package dev.transforms.spark;

import dev.transforms.runtime.CheckResult;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.spi.CheckSpec;
import dev.transforms.runtime.spi.StagedOutput;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.Schema;
import org.apache.iceberg.spark.SparkSchemaUtil;
import org.apache.iceberg.types.Type;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Evaluates a Spark output's data expectations on its staging branch with one Spark query: every
 * row-wise count and every duplicate count as one aggregate, read at the staged snapshot (and, for an
 * incremental build that only appended, over the appended rows alone for row-wise checks and the
 * keys of the appended rows for uniqueness). Examples of violations are fetched only for the checks
 * that failed.
 */
final class SparkChecks {

  private final SparkSession session;
  private final StagedOutput output;
  private final DatasetPath path;
  private final Schema schema;
  private final String staged;
  private final String rows;
  private final List<String> views = new ArrayList<>();
  /** Counts over the rows row-wise checks read, when those are the appended rows only. */
  private final List<String> rowWiseCounts = new ArrayList<>();

  private SparkChecks(SparkSession session, StagedOutput output) {
    this.session = session;
    this.output = output;
    this.path = output.output().parameter().requirePath();
    this.schema = output.table().schema();
    String identifier = output.output().resolved().sparkIdentifier();
    this.staged = view(TransformsSparkCatalog.bySnapshot(() -> SnapshotReads.atSnapshot(session.read(),
        output.stagedSnapshotId()).table(identifier)));
    this.rows = output.appendedSince().isPresent()
        ? view(TransformsSparkCatalog.bySnapshot(() -> session.read()
            .option("start-snapshot-id", Long.toString(output.appendedSince().getAsLong()))
            .option("end-snapshot-id", Long.toString(output.stagedSnapshotId())).table(identifier)))
        : staged;
  }

  /**
   * Evaluates checks.
   *
   * @param session the build's session
   * @param output the staged output
   * @param checks the checks, none of them engine-neutral
   * @return one result per check, in order
   */
  static List<CheckResult> evaluate(SparkSession session, StagedOutput output, List<CheckSpec> checks) {
    SparkChecks evaluation = new SparkChecks(session, output);
    try {
      return evaluation.run(checks);
    } finally {
      evaluation.views.forEach(v -> session.catalog().dropTempView(v));
    }
  }

  private String view(Dataset<Row> frame) {
    String name = "transforms_check_" + UUID.randomUUID().toString().replace("-", "");
    frame.createOrReplaceTempView(name);
    views.add(name);
    return name;
  }

  private List<CheckResult> run(List<CheckSpec> checks) {
    Map<CheckSpec, CheckResult> results = new LinkedHashMap<>();
    Map<CheckSpec, List<String>> counts = new LinkedHashMap<>();
    List<String> rowCounts = new ArrayList<>();
    List<String> subqueries = new ArrayList<>();
    rowCounts.add("count(*) AS staged_rows");
    for (CheckSpec check : checks) {
      String violation = violation(check);
      if (violation != null) {
        String error = analysisError(violation);
        if (error != null) {
          results.put(check, new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.ERROR, 0,
              List.of(), error));
          continue;
        }
      }
      List<String> columns = new ArrayList<>();
      if (violation != null) {
        String alias = "c" + counts.size() + "_" + columns.size();
        (check.rowWise() || check instanceof CheckSpec.PrimaryKey ? rowCountsFor(rowCounts) : rowCounts)
            .add("count_if(" + violation + ") AS " + alias);
        columns.add(alias);
      }
      if (check instanceof CheckSpec.PrimaryKey || check instanceof CheckSpec.Unique) {
        String alias = "d" + counts.size();
        subqueries.add("(SELECT coalesce(sum(n), 0) AS " + alias + " FROM (" + duplicates(check.columns(), "n") + "))");
        columns.add(alias);
      }
      counts.put(check, columns);
      results.put(check, null);
    }
    Row totals = session.sql(query(rowCounts, subqueries)).collectAsList().get(0);
    for (Map.Entry<CheckSpec, List<String>> entry : counts.entrySet()) {
      CheckSpec check = entry.getKey();
      if (check instanceof CheckSpec.RowCount rowCount) {
        results.put(check, rowCount(rowCount, totals.getLong(totals.fieldIndex("staged_rows"))));
        continue;
      }
      long violations = 0;
      for (String column : entry.getValue()) {
        violations += totals.getLong(totals.fieldIndex(column));
      }
      results.put(check, violations == 0
          ? new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.PASSED, 0, List.of(), "")
          : new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.FAILED, violations,
              examples(check), ""));
    }
    return new ArrayList<>(results.values());
  }

  private List<String> rowCountsFor(List<String> tableCounts) {
    return rows.equals(staged) ? tableCounts : rowWiseCounts;
  }

  private String query(List<String> tableCounts, List<String> subqueries) {
    StringBuilder sql = new StringBuilder("SELECT * FROM (SELECT ").append(String.join(", ", tableCounts))
        .append(" FROM ").append(staged).append(")");
    if (!rowWiseCounts.isEmpty()) {
      sql.append(" CROSS JOIN (SELECT ").append(String.join(", ", rowWiseCounts)).append(" FROM ").append(rows)
          .append(")");
    }
    subqueries.forEach(s -> sql.append(" CROSS JOIN ").append(s));
    return sql.toString();
  }

  /** The condition a violating row meets, or null for checks that count differently. */
  private String violation(CheckSpec check) {
    if (check instanceof CheckSpec.NotNull || check instanceof CheckSpec.PrimaryKey) {
      return String.join(" OR ", check.columns().stream().map(c -> quote(c) + " IS NULL").toList());
    }
    if (check instanceof CheckSpec.AllowedValues allowed) {
      String type = sqlType(allowed.column());
      return quote(allowed.column()) + " IS NOT NULL AND " + quote(allowed.column()) + " NOT IN ("
          + String.join(", ", allowed.values().stream().map(v -> "CAST(" + literal(v) + " AS " + type + ")").toList())
          + ")";
    }
    if (check instanceof CheckSpec.ValueRange range) {
      String column = quote(range.column());
      String type = sqlType(range.column());
      List<String> outside = new ArrayList<>();
      if (!range.min().isEmpty()) {
        outside.add(column + " < CAST(" + literal(range.min()) + " AS " + type + ")");
      }
      if (!range.max().isEmpty()) {
        outside.add(column + " > CAST(" + literal(range.max()) + " AS " + type + ")");
      }
      return column + " IS NOT NULL AND (" + String.join(" OR ", outside) + ")";
    }
    if (check instanceof CheckSpec.Satisfies satisfies) {
      // A row violates the predicate when it is false; unknown (a null compared) is no violation.
      return "NOT (" + satisfies.predicate() + ")";
    }
    return null;
  }

  /** Rows grouped by key, for keys held by more than one row (nulls left out); {@code count} per key. */
  private String duplicates(List<String> columns, String count) {
    String keys = String.join(", ", columns.stream().map(SparkChecks::quote).toList());
    String notNull = String.join(" AND ", columns.stream().map(c -> "s." + quote(c) + " IS NOT NULL").toList());
    String source = staged + " s";
    if (!rows.equals(staged)) {
      // Old rows were unique when published: only keys of appended rows can be duplicated now.
      source += " LEFT SEMI JOIN " + rows + " a ON " + String.join(" AND ",
          columns.stream().map(c -> "s." + quote(c) + " <=> a." + quote(c)).toList());
    }
    return "SELECT " + keys.replaceAll("`([^`]*)`", "s.`$1`") + ", count(*) AS " + count + " FROM " + source
        + " WHERE " + notNull + " GROUP BY " + keys.replaceAll("`([^`]*)`", "s.`$1`") + " HAVING count(*) > 1";
  }

  private CheckResult rowCount(CheckSpec.RowCount check, long count) {
    java.util.OptionalLong before = java.util.OptionalLong.empty();
    if (check.relative() && output.publishedSnapshotId().isPresent()) {
      before = java.util.OptionalLong.of(TransformsSparkCatalog.bySnapshot(() -> SnapshotReads.atSnapshot(session.read(),
          output.publishedSnapshotId().getAsLong()).table(output.output().resolved().sparkIdentifier())).count());
    }
    List<String> problems = check.problems(before, count);
    return problems.isEmpty()
        ? new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.PASSED, 0, List.of(), "")
        : new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.FAILED, 0, List.of(),
            String.join("; ", problems));
  }

  private List<String> examples(CheckSpec check) {
    List<Row> found;
    if (check instanceof CheckSpec.Unique || (check instanceof CheckSpec.PrimaryKey
        && session.sql("SELECT 1 FROM " + rows + " WHERE " + violation(check) + " LIMIT 1").isEmpty())) {
      found = session.sql(duplicates(check.columns(), "rows") + " LIMIT " + CheckResult.EXAMPLES).collectAsList();
    } else {
      found = session.sql("SELECT * FROM " + rows + " WHERE " + violation(check) + " LIMIT " + CheckResult.EXAMPLES)
          .collectAsList();
    }
    return found.stream().map(Row::toString).toList();
  }

  private String analysisError(String violation) {
    try {
      session.sql("SELECT count_if(" + violation + ") FROM " + rows).schema();
      return null;
    } catch (Exception e) {
      // Spark's AnalysisException is checked in Java's eyes but never declared.
      if (!(e instanceof org.apache.spark.sql.AnalysisException)) {
        throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
      }
      String message = String.valueOf(e.getMessage());
      int newline = message.indexOf('\n');
      return "cannot evaluate it: " + (newline < 0 ? message : message.substring(0, newline));
    }
  }

  private String sqlType(String column) {
    Type type = schema.findType(column);
    return SparkSchemaUtil.convert(type).sql();
  }

  private static String quote(String column) {
    return "`" + column.replace("`", "``") + "`";
  }

  private static String literal(String text) {
    return TableReads.literal(text);
  }
}
