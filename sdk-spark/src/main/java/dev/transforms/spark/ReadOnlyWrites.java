package dev.transforms.spark;

import dev.transforms.spark.internal.ScalaCollections;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.catalyst.plans.logical.AppendData;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.OverwriteByExpression;
import org.apache.spark.sql.catalyst.plans.logical.OverwritePartitionsDynamic;
import org.apache.spark.sql.catalyst.plans.logical.V2WriteCommand;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Refuses, while analysing a statement, a write to an output named past its staging branch
 * ({@link ReadOnlyTable}: {@code `t`.branch_main}, {@code `t`.tag_x}), with Spark's own error
 * ({@code UNSUPPORTED_FEATURE.TABLE_OPERATION}) naming the table as written and saying why it is
 * read-only. Spark would refuse the write anyway, since the table has no write capability, but Spark
 * 4.1 names the table by the identifier alone, which does not say why; Spark 3.5 names it by
 * {@link ReadOnlyTable#name()}. This rule runs before Spark's capability check on both lines, so the
 * error is the same on both.
 */
final class ReadOnlyWrites extends Rule<LogicalPlan> {

  /** What the error adds to the table's name. */
  static final String REASON = "(read-only while its transform runs)";

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    plan.foreach(new AbstractFunction1<LogicalPlan, BoxedUnit>() {
      @Override
      public BoxedUnit apply(LogicalPlan node) {
        if (node instanceof V2WriteCommand write && write.table() instanceof DataSourceV2Relation relation
            && relation.table() instanceof ReadOnlyTable) {
          throw ReadOnlyWrites.<RuntimeException>unchecked(refused(relation, operation(write)));
        }
        return BoxedUnit.UNIT;
      }
    });
    return plan;
  }

  /** The operation's words in Spark's own errors for a table that lacks the capability. */
  private static String operation(V2WriteCommand write) {
    if (write instanceof AppendData) {
      return "append in batch mode";
    }
    if (write instanceof OverwriteByExpression) {
      return "overwrite by filter in batch mode";
    }
    if (write instanceof OverwritePartitionsDynamic) {
      return "dynamic overwrite in batch mode";
    }
    return "writes";
  }

  /**
   * Throws Spark's {@code AnalysisException}, which Java sees as checked, from a Scala function that
   * cannot declare it, as Spark's own rules throw it.
   */
  @SuppressWarnings("unchecked")
  private static <E extends Exception> E unchecked(Exception e) throws E {
    throw (E) e;
  }

  private static AnalysisException refused(DataSourceV2Relation relation, String operation) {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("tableName", name(relation) + " " + REASON);
    parameters.put("operation", operation);
    return new AnalysisException("UNSUPPORTED_FEATURE.TABLE_OPERATION", ScalaCollections.immutableMap(parameters));
  }

  /** The table as the statement named it, {@code `catalog`.`ns`.`table`.`branch_x`}, each part quoted. */
  static String name(DataSourceV2Relation relation) {
    if (relation.catalog().isEmpty() || relation.identifier().isEmpty()) {
      return ((ReadOnlyTable) relation.table()).underlyingName();
    }
    CatalogPlugin catalog = relation.catalog().get();
    Identifier identifier = relation.identifier().get();
    List<String> parts = new ArrayList<>();
    parts.add(catalog.name());
    parts.addAll(List.of(identifier.namespace()));
    parts.add(identifier.name());
    StringBuilder out = new StringBuilder();
    for (String part : parts) {
      out.append(out.isEmpty() ? "" : ".").append('`').append(part.replace("`", "``")).append('`');
    }
    return out.toString();
  }
}
