package dev.transforms.singlenode.internal.duckdb;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** The names under which a SQL session shows a transform's inputs. */
public final class SqlNames {

  /** A plain SQL name, as {@code register} accepts it. */
  public static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** What {@code javac} names a parameter when the class was compiled without {@code -parameters}. */
  private static final Pattern SYNTHETIC = Pattern.compile("arg[0-9]+");

  private SqlNames() {}

  /**
   * One input parameter: its compiled name and the last segment of its path.
   *
   * @param lastSegment the last segment of the input's path
   */
  public record Parameter(String parameter, String lastSegment) {}

  /**
   * The default name of each input, in parameter order: the parameter's name in snake case, or the
   * last path segment in snake case when names were not compiled in; {@code _2}, {@code _3}... tell
   * apart names that would clash.
   *
   * @param parameters the input parameters, in order
   * @return the default name of each, by position
   */
  public static List<String> defaults(List<Parameter> parameters) {
    Set<String> taken = new HashSet<>();
    java.util.ArrayList<String> names = new java.util.ArrayList<>();
    for (Parameter p : parameters) {
      String base = snakeCase(SYNTHETIC.matcher(p.parameter()).matches() ? p.lastSegment() : p.parameter());
      String name = base;
      for (int n = 2; !taken.add(name); n++) {
        name = base + "_" + n;
      }
      names.add(name);
    }
    return names;
  }

  /**
   * Snake case of a Java name or a path segment: {@code rowUpdates} and {@code row-updates} both give
   * {@code row_updates}, {@code HTTPLogs} gives {@code http_logs}; characters other than letters and
   * digits become {@code _}, and a leading digit gets a {@code _} before it.
   *
   * @param name a parameter name or a path segment
   */
  public static String snakeCase(String name) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c)) {
        boolean afterLower = i > 0 && (Character.isLowerCase(name.charAt(i - 1)) || Character.isDigit(name.charAt(i - 1)));
        boolean endsAcronym = i > 0 && Character.isUpperCase(name.charAt(i - 1))
            && i + 1 < name.length() && Character.isLowerCase(name.charAt(i + 1));
        if (afterLower || endsAcronym) {
          out.append('_');
        }
        out.append(Character.toLowerCase(c));
      } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
        out.append(c);
      } else {
        out.append('_');
      }
    }
    String snake = out.toString().replaceAll("_+", "_");
    if (snake.isEmpty() || snake.equals("_")) {
      return "input";
    }
    return Character.isDigit(snake.charAt(0)) ? "_" + snake : snake;
  }

  /**
   * Checks a name given to {@code register}.
   *
   * @throws IllegalArgumentException if it is not a plain SQL name
   */
  public static String checkPlain(String name) {
    if (name == null || !PLAIN.matcher(name).matches()) {
      throw new IllegalArgumentException("Argument name of register must be a plain SQL name (a letter or _, then"
          + " letters, digits or _), not " + (name == null ? "null" : "'" + name + "'"));
    }
    return name;
  }

  /** The key under which a name is kept: DuckDB's names are not case-sensitive. */
  public static String key(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  /**
   * Whether SQL text mentions a name as a word of its own (over-inclusive: a mention in a string
   * literal or a comment counts, which only loads an input that was not needed).
   *
   * @return whether it appears
   */
  public static boolean mentions(String sql, String name) {
    return Pattern.compile("(?<![A-Za-z0-9_$])" + Pattern.quote(name) + "(?![A-Za-z0-9_$])", Pattern.CASE_INSENSITIVE)
        .matcher(sql).find();
  }

  /**
   * A name spelled as a DuckDB identifier: in double quotes, any double quote doubled.
   *
   * @param name a table, view or column name
   */
  public static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  /**
   * Text spelled as a DuckDB string literal: in single quotes, any single quote doubled.
   *
   * @param text a path, a name or any text
   */
  public static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
