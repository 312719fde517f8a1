package dev.transforms.singlenode.filter;

import org.apache.iceberg.expressions.Expression.Operation;

/**
 * One token of a row filter.
 *
 * @param text the token exactly as written in the filter, for error messages
 * @param value the decoded content: the name of an identifier (quotes removed, parts joined with
 *     {@code .}), the content of a string (doubled quotes collapsed), the digits of a number or hex literal;
 *     the upper-case word for keywords and operators
 * @param start the 0-based index of the token's first character in the filter
 */
record Token(Kind kind, String text, String value, int start) {

  /** Token kinds. Comparison operators carry the Iceberg operation they stand for. */
  enum Kind {
    LEFT_PAREN,
    RIGHT_PAREN,
    COMMA,
    EQ(Operation.EQ),
    NOT_EQ(Operation.NOT_EQ),
    LT(Operation.LT),
    LT_EQ(Operation.LT_EQ),
    GT(Operation.GT),
    GT_EQ(Operation.GT_EQ),
    IDENTIFIER,
    STRING,
    NUMBER,
    HEX,
    AND,
    OR,
    NOT,
    IN,
    IS,
    NULL,
    NAN,
    LIKE,
    BETWEEN,
    TRUE,
    FALSE,
    END;

    private final Operation comparison;

    Kind() {
      this(null);
    }

    Kind(Operation comparison) {
      this.comparison = comparison;
    }

    /** The Iceberg operation of a comparison operator, or null for every other kind. */
    Operation comparison() {
      return comparison;
    }

    boolean isComparison() {
      return comparison != null;
    }

    /** Whether a token of this kind can stand for a value on one side of a comparison. */
    boolean isLiteral() {
      return this == STRING || this == NUMBER || this == HEX || this == TRUE || this == FALSE;
    }
  }

  boolean is(Kind other) {
    return kind == other;
  }
}
