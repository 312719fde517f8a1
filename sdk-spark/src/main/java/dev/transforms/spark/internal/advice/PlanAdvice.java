package dev.transforms.spark.internal.advice;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.spi.AdvisoryRule;
import dev.transforms.runtime.AdvisorySettings;
import dev.transforms.runtime.spi.RunAdvisories;
import dev.transforms.runtime.spi.TransformRun;
import dev.transforms.spark.internal.ScalaCollections;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.EqualNullSafe;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.AppendData;
import org.apache.spark.sql.catalyst.plans.logical.Deduplicate;
import org.apache.spark.sql.catalyst.plans.logical.Distinct;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.OverwriteByExpression;
import org.apache.spark.sql.catalyst.plans.logical.OverwritePartitionsDynamic;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.V2WriteCommand;
import org.apache.spark.sql.execution.CollectLimitExec;
import org.apache.spark.sql.execution.ColumnarToRowExec;
import org.apache.spark.sql.execution.InputAdapter;
import org.apache.spark.sql.execution.ProjectExec;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import org.apache.spark.sql.execution.metric.SQLMetric;

/**
 * The Spark rules, applied to each SQL execution of one run as the listener receives it (on the
 * listener's thread, never the transform's) and to the jobs the run started outside any query. Each
 * rule looks at one plan: the analyzed plan for what the user wrote (projection chains, join
 * conditions, write commands), the optimized plan for what will run (joins left without a condition,
 * the source of a MERGE), the executed physical plan for row counts.
 */
final class PlanAdvice {

  /** Actions that bring rows to the driver, by the name Spark gives their execution. */
  private static final Set<String> COLLECTING = Set.of("collect", "collectAsList", "toLocalIterator", "tail", "head",
      "takeAsList");

  private final RunAdvisories advisories;
  private final AdvisorySettings settings;
  private final Map<String, DatasetPath> datasets = new HashMap<>();

  PlanAdvice(TransformRun run) {
    this.advisories = run.advisories();
    this.settings = advisories.settings();
    run.inputs().forEach(i -> datasets.put(key(i.resolved().catalog(), i.resolved().identifier().namespace().levels(),
        i.resolved().identifier().name()), i.parameter().requirePath()));
    run.outputs().forEach(o -> datasets.put(key(o.resolved().catalog(), o.resolved().identifier().namespace().levels(),
        o.resolved().identifier().name()), o.parameter().requirePath()));
  }

  private static String key(String catalog, String[] namespace, String name) {
    return (catalog + "." + String.join(".", namespace) + "." + name).toLowerCase(Locale.ROOT);
  }

  /**
   * Inspects one finished SQL execution.
   *
   * @param name the execution's name ({@code collect}, {@code append}, {@code command}...)
   * @param qe the executed query
   * @param overwriteMode the session's partition overwrite mode when the execution started
   */
  void inspect(String name, QueryExecution qe, String overwriteMode) {
    LogicalPlan analyzed = qe.analyzed();
    projectionChains(analyzed);
    nullUnsafeJoins(analyzed);
    writes(name, analyzed, overwriteMode);
    LogicalPlan optimized = qe.optimizedPlan();
    cartesianProducts(optimized);
    merges(optimized);
    if (COLLECTING.contains(name)) {
      long rows = rowsOut(qe.executedPlan());
      if (rows > settings.collectRows()) {
        advisories.add(AdvisoryRule.DRIVER_COLLECT, name + "() brought " + rows + " rows to the driver (more than "
            + settings.collectRows() + ")", Optional.empty());
      }
    }
  }

  /** A job outside any SQL execution: DataFrameReader runs one only to infer a schema from the files. */
  void jobOutsideQueries(String callSite) {
    String method = callSite.contains(" at ") ? callSite.substring(0, callSite.indexOf(" at ")) : callSite;
    // Not "load": format("parquet").load(...) of many files runs a job too, to read footers, not to guess types.
    if (method.equals("csv") || method.equals("json")) {
      advisories.add(AdvisoryRule.INFERRED_SCHEMA, "a job read the files to infer their schema (" + callSite + ")",
          Optional.empty());
    }
  }

  // ---- withcolumn-loop: the longest run of projections directly on top of one another

  private void projectionChains(LogicalPlan analyzed) {
    int longest = longestChain(analyzed, 0);
    if (longest >= settings.projections()) {
      advisories.add(AdvisoryRule.WITHCOLUMN_LOOP, longest + " projections stacked in one plan (the threshold is "
          + settings.projections() + ")", Optional.empty());
    }
  }

  private static int longestChain(LogicalPlan plan, int above) {
    int here = plan instanceof Project ? above + 1 : 0;
    int longest = here;
    for (LogicalPlan child : children(plan)) {
      longest = Math.max(longest, longestChain(child, here));
    }
    return longest;
  }

  // ---- cartesian-product: a join the optimizer left without any condition

  private void cartesianProducts(LogicalPlan optimized) {
    for (LogicalPlan node : nodes(optimized)) {
      if (node instanceof Join join && join.condition().isEmpty()) {
        String type = join.joinType().sql();
        if ((type.equals("INNER") || type.equals("CROSS")) && !atMostOneRow(join.left())
            && !atMostOneRow(join.right())) {
          advisories.add(AdvisoryRule.CARTESIAN_PRODUCT, "a join of " + describe(join.left()) + " with "
              + describe(join.right()) + " has no join condition", Optional.empty());
        }
      }
    }
  }

  private static boolean atMostOneRow(LogicalPlan plan) {
    return plan.maxRows().isDefined() && ((Long) plan.maxRows().get()) <= 1;
  }

  // ---- null-unsafe-join: = on a nullable column of one table matched against the same column of itself

  private void nullUnsafeJoins(LogicalPlan analyzed) {
    for (LogicalPlan node : nodes(analyzed)) {
      if (!(node instanceof Join join) || join.condition().isEmpty()) {
        continue;
      }
      String type = join.joinType().sql();
      if (!(type.equals("INNER") || type.equals("LEFT SEMI") || type.equals("LEFT ANTI"))) {
        continue;
      }
      Set<String> leftTables = tables(join.left());
      Set<String> rightTables = tables(join.right());
      Set<String> both = new HashSet<>(leftTables);
      both.retainAll(rightTables);
      if (both.isEmpty()) {
        continue;
      }
      Set<Long> leftIds = exprIds(join.left().output());
      Set<Long> rightIds = exprIds(join.right().output());
      for (Expression conjunct : conjuncts(join.condition().get())) {
        if (conjunct instanceof EqualTo equal && equal.left() instanceof AttributeReference a
            && equal.right() instanceof AttributeReference b && a.nullable() && b.nullable()
            && a.name().equalsIgnoreCase(b.name())
            && (leftIds.contains(a.exprId().id()) && rightIds.contains(b.exprId().id())
                || leftIds.contains(b.exprId().id()) && rightIds.contains(a.exprId().id()))) {
          String table = both.iterator().next();
          advisories.add(AdvisoryRule.NULL_UNSAFE_JOIN, "rows of " + table + " are matched with rows of the same "
              + "table on " + a.name() + " = " + b.name() + ", a column that may be null", dataset(table));
        }
      }
    }
  }

  private static List<Expression> conjuncts(Expression condition) {
    List<Expression> all = new ArrayList<>();
    if (condition instanceof And and) {
      all.addAll(conjuncts(and.left()));
      all.addAll(conjuncts(and.right()));
    } else {
      all.add(condition);
    }
    return all;
  }

  private static Set<Long> exprIds(scala.collection.Seq<Attribute> attributes) {
    Set<Long> ids = new HashSet<>();
    for (Attribute attribute : ScalaCollections.list(attributes)) {
      ids.add(attribute.exprId().id());
    }
    return ids;
  }

  // ---- v1-write and static-overwrite: the write command of an execution

  private void writes(String name, LogicalPlan analyzed, String overwriteMode) {
    if (!(analyzed instanceof V2WriteCommand write) || !(write.table() instanceof DataSourceV2Relation relation)
        || !isIceberg(relation)) {
      return;
    }
    Optional<DatasetPath> dataset = dataset(tableName(relation));
    scala.collection.immutable.Map<String, String> options = analyzed instanceof AppendData append ? append.writeOptions()
        : analyzed instanceof OverwriteByExpression overwrite ? overwrite.writeOptions()
        : analyzed instanceof OverwritePartitionsDynamic dynamic ? dynamic.writeOptions() : null;
    // DataFrameWriter (v1) passes the table it was given as a "path" option; writeTo and SQL never do.
    if (options != null && options.contains("path") && !icebergActionWrite(options) && !icebergRewriteCatalog(relation)) {
      advisories.add(AdvisoryRule.V1_WRITE, "the v1 DataFrameWriter (" + name + ") wrote into " + tableName(relation),
          dataset);
    }
    if (analyzed instanceof OverwriteByExpression overwrite && overwrite.deleteExpr() instanceof Literal literal
        && Boolean.TRUE.equals(literal.value()) && relation.table().partitioning().length > 0
        && !overwrite.writeOptions().contains("overwrite-mode")
        && overwriteMode.equalsIgnoreCase("static")) {
      advisories.add(AdvisoryRule.STATIC_OVERWRITE, "an overwrite in static mode replaced every row of the "
          + "partitioned table " + tableName(relation), dataset);
    }
  }

  /**
   * Whether a write is one of Iceberg's own actions (rewrite_data_files, rewrite_position_delete_files):
   * they write their file groups with the v1 writer, tagged with the scan task set they rewrite.
   */
  private static boolean icebergActionWrite(scala.collection.immutable.Map<String, String> options) {
    return ScalaCollections.set(options.keySet()).stream()
        .anyMatch(key -> key.toLowerCase(java.util.Locale.ROOT).endsWith("scan-task-set-id"));
  }

  /**
   * Whether a write goes to Iceberg's rewrite catalog: Iceberg's actions on Spark 4.1 write their file groups
   * with the v1 writer into {@code SparkRewriteTableCatalog} (named by class: Iceberg for Spark 3.5 has no such
   * catalog, and tags the write with a scan task set instead).
   */
  private static boolean icebergRewriteCatalog(DataSourceV2Relation relation) {
    return relation.catalog().isDefined()
        && relation.catalog().get().getClass().getName().equals("org.apache.iceberg.spark.SparkRewriteTableCatalog");
  }

  // ---- merge-source-not-unique: the source side of a MERGE's join

  private void merges(LogicalPlan optimized) {
    for (LogicalPlan node : nodes(optimized)) {
      String kind = node.getClass().getSimpleName();
      if (!kind.equals("MergeRows")) {
        continue;
      }
      Set<String> targets = new HashSet<>();
      for (LogicalPlan n : nodes(optimized)) {
        if (n instanceof V2WriteCommand w && w.table() instanceof DataSourceV2Relation r) {
          targets.add(tableName(r));
        } else if (n.getClass().getSimpleName().startsWith("ReplaceIcebergData")
            || n.getClass().getSimpleName().startsWith("WriteIcebergDelta")) {
          for (LogicalPlan c : nodes(n)) {
            if (c instanceof DataSourceV2Relation r) {
              targets.add(tableName(r));
            }
          }
        }
      }
      Optional<Join> join = nodes(node).stream().filter(Join.class::isInstance).map(Join.class::cast).findFirst();
      if (join.isEmpty() || join.get().condition().isEmpty()) {
        continue;
      }
      LogicalPlan source = null;
      if (!containsAny(join.get().left(), targets)) {
        source = join.get().left();
      } else if (!containsAny(join.get().right(), targets)) {
        source = join.get().right();
      }
      if (source == null) {
        continue;
      }
      Set<Long> sourceIds = exprIds(source.output());
      Set<Long> keys = new HashSet<>();
      for (Expression conjunct : conjuncts(join.get().condition().get())) {
        if (conjunct instanceof EqualTo || conjunct instanceof EqualNullSafe) {
          for (Expression side : ScalaCollections.list(conjunct.children())) {
            if (side instanceof AttributeReference a && sourceIds.contains(a.exprId().id())) {
              keys.add(a.exprId().id());
            }
          }
        }
      }
      if (!keys.isEmpty() && !uniqueOn(source, keys)) {
        String target = targets.isEmpty() ? "the target" : targets.iterator().next();
        advisories.add(AdvisoryRule.MERGE_SOURCE_NOT_UNIQUE, "the source of a MERGE into " + target
            + " (" + describe(source) + ") is not known to hold one row per join key", dataset(target));
      }
    }
  }

  /** Whether a plan's rows are known unique on the given columns. */
  private static boolean uniqueOn(LogicalPlan plan, Set<Long> keys) {
    if (atMostOneRow(plan)) {
      return true;
    }
    if (plan instanceof Project || plan instanceof Filter || plan instanceof SubqueryAlias || plan instanceof Sort) {
      LogicalPlan child = children(plan).get(0);
      Set<Long> mapped = new HashSet<>();
      Set<Long> childIds = exprIds(child.output());
      if (plan instanceof Project project) {
        for (var e : ScalaCollections.list(project.projectList())) {
          if (keys.contains(e.exprId().id())) {
            Expression inner = e instanceof org.apache.spark.sql.catalyst.expressions.Alias alias ? alias.child()
                : (Expression) e;
            if (inner instanceof AttributeReference a && childIds.contains(a.exprId().id())) {
              mapped.add(a.exprId().id());
            } else {
              return false;
            }
          }
        }
      } else {
        mapped.addAll(keys);
      }
      return uniqueOn(child, mapped);
    }
    if (plan instanceof Aggregate aggregate) {
      Set<Long> grouping = new HashSet<>();
      for (Expression e : ScalaCollections.list(aggregate.groupingExpressions())) {
        if (!(e instanceof AttributeReference a)) {
          return false;
        }
        grouping.add(a.exprId().id());
      }
      // Grouped by columns that all are join keys: one row per key. Output ids of grouping columns are the child's.
      return keys.containsAll(grouping);
    }
    if (plan instanceof Deduplicate deduplicate) {
      return keys.containsAll(exprIds(deduplicate.keys()));
    }
    if (plan instanceof Distinct distinct) {
      return keys.containsAll(exprIds(distinct.output()));
    }
    return false;
  }

  private static boolean containsAny(LogicalPlan plan, Set<String> tables) {
    Set<String> found = tables(plan);
    found.retainAll(tables);
    return !found.isEmpty();
  }

  // ---- rows out of an executed plan, from its metrics

  /** The rows a physical plan produced, from the nearest node that counts them; -1 when unknown. */
  static long rowsOut(SparkPlan plan) {
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      return rowsOut(adaptive.executedPlan());
    }
    if (plan instanceof QueryStageExec stage) {
      return rowsOut(stage.plan());
    }
    if (plan instanceof CollectLimitExec limit) {
      long below = rowsOut(limit.child());
      return below < 0 ? limit.limit() : Math.min(below, limit.limit());
    }
    scala.Option<SQLMetric> counted = plan.metrics().get("numOutputRows");
    if (counted.isDefined()) {
      return counted.get().value();
    }
    if (plan instanceof WholeStageCodegenExec || plan instanceof InputAdapter || plan instanceof ProjectExec
        || plan instanceof ColumnarToRowExec) {
      return rowsOut(plan.children().head());
    }
    return -1;
  }

  // ---- helpers

  private static boolean isIceberg(DataSourceV2Relation relation) {
    return relation.table().getClass().getName().startsWith("org.apache.iceberg.");
  }

  private static String tableName(DataSourceV2Relation relation) {
    if (relation.catalog().isDefined() && relation.identifier().isDefined()) {
      var id = relation.identifier().get();
      return relation.catalog().get().name() + "." + String.join(".", id.namespace()) + "." + id.name();
    }
    return relation.table().name();
  }

  private Optional<DatasetPath> dataset(String table) {
    return Optional.ofNullable(datasets.get(table.toLowerCase(Locale.ROOT)));
  }

  private static Set<String> tables(LogicalPlan plan) {
    Set<String> names = new HashSet<>();
    for (LogicalPlan node : nodes(plan)) {
      if (node instanceof DataSourceV2Relation relation) {
        names.add(tableName(relation));
      } else if (node instanceof DataSourceV2ScanRelation scan) {
        names.add(tableName(scan.relation()));
      }
    }
    return names;
  }

  private static String describe(LogicalPlan plan) {
    Set<String> tables = tables(plan);
    return tables.isEmpty() ? "rows built in the transform" : String.join(", ", new java.util.TreeSet<>(tables));
  }

  private static List<LogicalPlan> children(LogicalPlan plan) {
    return ScalaCollections.list(plan.children());
  }

  private static List<LogicalPlan> nodes(LogicalPlan plan) {
    List<LogicalPlan> all = new ArrayList<>();
    List<LogicalPlan> pending = new ArrayList<>();
    pending.add(plan);
    while (!pending.isEmpty()) {
      LogicalPlan node = pending.remove(pending.size() - 1);
      all.add(node);
      pending.addAll(children(node));
    }
    return all;
  }
}
