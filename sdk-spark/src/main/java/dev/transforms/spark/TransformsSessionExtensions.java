package dev.transforms.spark;

import dev.transforms.spark.internal.ScalaCollections;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeIntoTable;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.rules.Rule;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * Spark session extensions of the SDK, listed in {@code spark.sql.extensions} after Iceberg's. They
 * wrap the SQL parser to remember, per thread, the last {@code MERGE} statement parsed: its target
 * and ON condition. When a MERGE fails because several source rows match one target row, the engine
 * names the keys in its error from what was remembered. Parsing is otherwise untouched. A rule run
 * after resolution ({@link ReadOnlyWrites}) refuses writes to an output named past its staging branch
 * with an error that says why.
 */
public final class TransformsSessionExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {

  private static final ThreadLocal<MergeStatement> LAST_MERGE = new ThreadLocal<>();

  /** Creates the extensions; Spark does this. */
  public TransformsSessionExtensions() {}

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectParser(new AbstractFunction2<SparkSession, ParserInterface, ParserInterface>() {
      @Override
      public ParserInterface apply(SparkSession session, ParserInterface delegate) {
        return new RecordingParser(delegate);
      }
    });
    extensions.injectPostHocResolutionRule(new AbstractFunction1<SparkSession, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(SparkSession session) {
        return new ReadOnlyWrites();
      }
    });
    LineExtensions.apply(extensions);
    return BoxedUnit.UNIT;
  }

  /**
   * The last MERGE statement parsed on this thread.
   *
   * @return its target and condition, if any was parsed since the last {@link #forgetMerge()}
   */
  static Optional<MergeStatement> lastMerge() {
    return Optional.ofNullable(LAST_MERGE.get());
  }

  /** Forgets the last MERGE statement of this thread. */
  static void forgetMerge() {
    LAST_MERGE.remove();
  }

  /**
   * What a MERGE statement says.
   *
   * @param target the target table's name parts, as written
   * @param condition the ON condition, as SQL
   */
  record MergeStatement(List<String> target, String condition) {}

  /**
   * Remembers a parsed statement when it is a MERGE: the parser of each Spark line
   * ({@code RecordingParser}, in {@code src/main/spark-X.Y/java}) calls this with every plan it parses.
   *
   * @param plan the parsed plan
   * @return {@code plan}
   */
  static LogicalPlan record(LogicalPlan plan) {
    if (plan instanceof MergeIntoTable merge) {
      try {
        LAST_MERGE.set(new MergeStatement(target(merge.targetTable()), merge.mergeCondition().sql()));
      } catch (RuntimeException e) {
        // Remembering is best effort; never fail a statement for it.
      }
    }
    return plan;
  }

  private static List<String> target(LogicalPlan plan) {
    LogicalPlan current = plan;
    while (current instanceof SubqueryAlias alias) {
      current = alias.child();
    }
    if (current instanceof UnresolvedRelation relation) {
      return List.copyOf(ScalaCollections.list(relation.multipartIdentifier()));
    }
    return List.of();
  }
}
