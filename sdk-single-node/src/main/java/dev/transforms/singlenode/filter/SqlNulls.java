package dev.transforms.singlenode.filter;

import org.apache.iceberg.expressions.BoundPredicate;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionVisitors;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.UnboundPredicate;

/**
 * SQL's three-valued logic for Iceberg filters, which the SDK's scans and row edits apply: a comparison
 * with a null value ({@code <}, {@code =}, {@code !=}, {@code IN}, {@code NOT IN}, {@code startsWith},
 * {@code notNaN}, ...) is unknown, {@code NOT} of unknown is unknown, and a row matches only when the
 * whole filter is true. Iceberg's own {@code Evaluator} orders null below every value instead, so that
 * {@code x != 5} would hold for a null {@code x}; see {@code docs/filters.md}.
 */
public final class SqlNulls {
  private SqlNulls() {}

  /**
   * Rewrites a filter so that Iceberg's evaluators give SQL's answer: NOT is pushed down to the
   * predicates, then each predicate that compares a value gets a {@code notNull} guard on its
   * term. Without NOT, a formula is true under three-valued logic exactly when it is true with
   * unknown read as false, which is what the guard does.
   *
   * @param filter an unbound filter
   * @return an equivalent filter under which a row with a null in a compared column never matches
   *     the comparison
   */
  public static Expression nullsNeverMatch(Expression filter) {
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
