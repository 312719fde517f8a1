package dev.transforms.singlenode.filter;

import dev.transforms.singlenode.filter.Token.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Splits a row filter into tokens, ending with one {@link Kind#END} token. */
final class Tokenizer {

  private static final Map<String, Kind> KEYWORDS =
      Map.ofEntries(
          Map.entry("BETWEEN", Kind.BETWEEN),
          Map.entry("AND", Kind.AND),
          Map.entry("OR", Kind.OR),
          Map.entry("NOT", Kind.NOT),
          Map.entry("IN", Kind.IN),
          Map.entry("IS", Kind.IS),
          Map.entry("NULL", Kind.NULL),
          Map.entry("NAN", Kind.NAN),
          Map.entry("LIKE", Kind.LIKE),
          Map.entry("TRUE", Kind.TRUE),
          Map.entry("FALSE", Kind.FALSE));

  private final String filter;
  private final List<Token> tokens = new ArrayList<>();
  private int pos = 0;

  private Tokenizer(String filter) {
    this.filter = filter;
  }

  static List<Token> tokenize(String filter) {
    Tokenizer tokenizer = new Tokenizer(filter);
    tokenizer.run();
    return tokenizer.tokens;
  }

  private void run() {
    while (true) {
      while (pos < filter.length() && Character.isWhitespace(filter.charAt(pos))) {
        pos++;
      }
      if (pos >= filter.length()) {
        tokens.add(new Token(Kind.END, "", "", filter.length()));
        return;
      }
      tokens.add(next());
    }
  }

  private Token next() {
    int start = pos;
    char c = filter.charAt(pos);
    switch (c) {
      case '(':
        return symbol(Kind.LEFT_PAREN, 1);
      case ')':
        return symbol(Kind.RIGHT_PAREN, 1);
      case ',':
        return symbol(Kind.COMMA, 1);
      case '=':
        return symbol(Kind.EQ, peek(1) == '=' ? 2 : 1);
      case '!':
        if (peek(1) == '=') {
          return symbol(Kind.NOT_EQ, 2);
        }
        throw FilterSyntaxException.at(filter, start, "unexpected '!'; write != for 'not equal' or NOT to negate");
      case '<':
        if (peek(1) == '=') {
          return symbol(Kind.LT_EQ, 2);
        }
        return peek(1) == '>' ? symbol(Kind.NOT_EQ, 2) : symbol(Kind.LT, 1);
      case '>':
        return peek(1) == '=' ? symbol(Kind.GT_EQ, 2) : symbol(Kind.GT, 1);
      case '\'':
        return string();
      case '"':
        return identifier();
      default:
        break;
    }
    if ((c == 'x' || c == 'X') && peek(1) == '\'') {
      return hex();
    }
    if (isDigit(c) || (c == '-' && isDigit(peek(1)))) {
      return number();
    }
    if (isIdentifierStart(c)) {
      return identifier();
    }
    throw FilterSyntaxException.at(filter, start, "unexpected character '" + c + "'");
  }

  private Token symbol(Kind kind, int length) {
    int start = pos;
    pos += length;
    String text = filter.substring(start, pos);
    return new Token(kind, text, text, start);
  }

  /** A single-quoted string; a doubled quote stands for one quote. */
  private Token string() {
    int start = pos;
    String content = quoted('\'', "unterminated string; close it with ' (write '' for a quote inside it)");
    return new Token(Kind.STRING, filter.substring(start, pos), content, start);
  }

  /** X'hex digits', a binary literal. */
  private Token hex() {
    int start = pos;
    pos++; // the X
    String digits = quoted('\'', "unterminated hex literal; close it with '");
    for (int i = 0; i < digits.length(); i++) {
      if (Character.digit(digits.charAt(i), 16) < 0) {
        throw FilterSyntaxException.at(
            filter,
            start + 2 + i,
            "'" + digits.charAt(i) + "' is not a hex digit; a binary literal looks like X'CAFE'");
      }
    }
    if (digits.length() % 2 != 0) {
      throw FilterSyntaxException.at(filter, start, "a hex literal needs an even number of digits, two per byte");
    }
    return new Token(Kind.HEX, filter.substring(start, pos), digits, start);
  }

  /** An integer or decimal number with an optional minus sign and exponent, such as -12, 0.5 or 1.5e-3. */
  private Token number() {
    int start = pos;
    if (filter.charAt(pos) == '-') {
      pos++;
    }
    digits();
    if (peek(0) == '.' && isDigit(peek(1))) {
      pos++;
      digits();
    }
    if ((peek(0) == 'e' || peek(0) == 'E')
        && (isDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
      pos += 2;
      digits();
    }
    String text = filter.substring(start, pos);
    return new Token(Kind.NUMBER, text, text, start);
  }

  private void digits() {
    while (isDigit(peek(0))) {
      pos++;
    }
  }

  /**
   * A column name: parts separated by dots, each bare ({@code status}) or double-quoted ({@code "my col"}).
   * A single bare part that spells a keyword is the keyword; quote it to use it as a column name.
   */
  private Token identifier() {
    int start = pos;
    StringBuilder name = new StringBuilder();
    boolean quoted = false;
    while (true) {
      if (peek(0) == '"') {
        int partStart = pos;
        String part = quoted('"', "unterminated quoted name; close it with \" (write \"\" for a quote inside it)");
        if (part.isEmpty()) {
          throw FilterSyntaxException.at(filter, partStart, "a quoted name cannot be empty");
        }
        name.append(part);
        quoted = true;
      } else {
        int partStart = pos;
        while (pos < filter.length() && isIdentifierPart(filter.charAt(pos))) {
          pos++;
        }
        name.append(filter, partStart, pos);
      }
      if (peek(0) != '.') {
        break;
      }
      if (!isIdentifierStart(peek(1)) && peek(1) != '"') {
        throw FilterSyntaxException.at(filter, pos + 1, "expected a name after '.'");
      }
      name.append('.');
      pos++;
    }
    String text = filter.substring(start, pos);
    boolean singleBarePart = !quoted && text.indexOf('.') < 0;
    Kind keyword = singleBarePart ? KEYWORDS.get(text.toUpperCase(Locale.ROOT)) : null;
    if (keyword != null) {
      return new Token(keyword, text, keyword.name(), start);
    }
    return new Token(Kind.IDENTIFIER, text, name.toString(), start);
  }

  /** Reads from the opening quote at pos through the closing one; returns the content, doubled quotes undone. */
  private String quoted(char quote, String unterminated) {
    int start = pos;
    StringBuilder content = new StringBuilder();
    pos++;
    while (pos < filter.length()) {
      char c = filter.charAt(pos);
      if (c == quote) {
        if (peek(1) != quote) {
          pos++;
          return content.toString();
        }
        pos++;
      }
      content.append(c);
      pos++;
    }
    throw FilterSyntaxException.at(filter, start, unterminated);
  }

  private char peek(int ahead) {
    int at = pos + ahead;
    return at < filter.length() ? filter.charAt(at) : '\0';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isIdentifierStart(char c) {
    return Character.isLetter(c) || c == '_';
  }

  private static boolean isIdentifierPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }
}
