package dev.transforms.singlenode.filter;

import org.apache.iceberg.expressions.BoundPredicate;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionVisitors;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.UnboundPredicate;

/**
 * Makes Iceberg's row evaluators give SQL's three-valued answer.
 *
 * <p>Under SQL's logic a comparison with a null value ({@code <}, {@code =}, {@code !=}, {@code IN},
 * {@code NOT IN}, {@code startsWith}, {@code notNaN}, ...) is unknown, {@code NOT} of unknown is
 * unknown, and a row is selected only when its filter is true. Iceberg's {@code Evaluator} instead
 * orders null below every value, so that {@code not(lessThan("x", 3))} holds for a null {@code x}.
 * {@link #trueRowsOnly} rewrites an expression so that both agree.
 */
public final class SqlTruth {

  private SqlTruth() {}

  /**
   * Rewrites a filter so that Iceberg's evaluators select exactly the rows for which it is true under
   * three-valued logic: NOT is pushed down to the predicates, then each predicate that compares a
   * value gets a {@code notNull} guard on its term. Without NOT, a formula is true under three-valued
   * logic exactly when it is true with unknown read as false, which is what the guards do.
   *
   * @param filter an unbound filter
   * @return the guarded filter, unbound
   */
  public static Expression trueRowsOnly(Expression filter) {
    return ExpressionVisitors.visit(
        Expressions.rewriteNot(filter),
        new ExpressionVisitors.ExpressionVisitor<Expression>() {
          @Override
          public Expression alwaysTrue() {
            return Expressions.alwaysTrue();
          }

          @Override
          public Expression alwaysFalse() {
            return Expressions.alwaysFalse();
          }

          @Override
          public Expression not(Expression result) {
            return Expressions.not(result);
          }

          @Override
          public Expression and(Expression left, Expression right) {
            return Expressions.and(left, right);
          }

          @Override
          public Expression or(Expression left, Expression right) {
            return Expressions.or(left, right);
          }

          @Override
          public <T> Expression predicate(BoundPredicate<T> pred) {
            return pred;
          }

          @Override
          public <T> Expression predicate(UnboundPredicate<T> pred) {
            switch (pred.op()) {
              case IS_NULL:
              case NOT_NULL:
              case IS_NAN:
                return pred;
              default:
                return Expressions.and(Expressions.notNull(pred.term()), pred);
            }
          }
        });
  }
}
