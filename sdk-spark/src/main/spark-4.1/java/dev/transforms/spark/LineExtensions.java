package dev.transforms.spark;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.analysis.V2TableReference;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.execution.CommandExecutionMode;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.collection.immutable.Seq;
import scala.runtime.AbstractFunction1;

/**
 * What the SDK's session extensions add on the Spark 4.1 line: a planner strategy for a table reference
 * that Spark 4.1 leaves unresolved in a subquery.
 *
 * <p>Spark 4.1 keeps a temporary view made from a DataFrame over a table (not at a snapshot) as a
 * {@link V2TableReference}, resolved again each time the view is used. A copy-on-write {@code MERGE}
 * with a {@code WHEN MATCHED} clause whose source is such a view builds a runtime filter subquery that
 * still holds the reference, and planning it fails with {@code INTERNAL_ERROR} "No plan for
 * TableReference" (SPARK-57539, fixed in Spark 4.2, not in 4.1.3). This happens with or without the
 * SDK; in a transform it is what {@code in.dataframe().createOrReplaceTempView(...)} followed by a
 * {@code MERGE} runs into. The strategy plans the reference as the table it names: it loads the table
 * from the reference's catalog, with the reference's options and columns, and plans that relation.
 * The rows are the ones the view's own resolution reads, since the reference carries the same catalog,
 * identifier and read options.
 */
final class LineExtensions {

  private LineExtensions() {}

  /** Adds this line's extensions. */
  static void apply(SparkSessionExtensions extensions) {
    extensions.injectPlannerStrategy(new AbstractFunction1<SparkSession, SparkStrategy>() {
      @Override
      public SparkStrategy apply(SparkSession session) {
        return new TableReferences(session);
      }
    });
  }

  /** Plans a {@link V2TableReference} left in a plan as a scan of the table it refers to. */
  static final class TableReferences extends SparkStrategy {

    /** What the strategy returns for every other node: Spark asks it about each node of every plan. */
    private static final Seq<SparkPlan> NOTHING = scala.collection.immutable.List$.MODULE$.empty();

    private final SparkSession session;

    TableReferences(SparkSession session) {
      this.session = session;
    }

    @Override
    public Seq<SparkPlan> apply(LogicalPlan plan) {
      if (!(plan instanceof V2TableReference reference)) {
        return NOTHING;
      }
      Table table;
      try {
        table = reference.catalog().loadTable(reference.identifier());
      } catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException e) {
        throw new IllegalStateException("Table " + reference.name() + " of a temporary view no longer exists", e);
      }
      DataSourceV2Relation relation = reference.toRelation(table);
      SparkPlan scan = ((org.apache.spark.sql.classic.SparkSession) session).sessionState()
          .executePlan(relation, CommandExecutionMode.SKIP()).sparkPlan();
      return scala.jdk.javaapi.CollectionConverters.asScala(java.util.List.of(scan)).toList();
    }
  }
}
