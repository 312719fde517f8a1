package dev.transforms.runtime.internal.load;

import dev.transforms.api.InvalidLoadException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A table's declared columns, and its partitioning when a schema file gives it: what a load of CSV or
 * JSON files reads them as, instead of guessing types from a sample.
 *
 * <p>The text is a list of columns, {@code name type}, separated by commas or line breaks, each
 * optionally followed by {@code not null}: {@code "order_id long not null, amount decimal(10,2),
 * created_at timestamp"}. A name is a bare word ({@code order_id}) or quoted in backticks
 * ({@code `unit price`}, a backtick inside doubled). {@code #} starts a comment that runs to the end of
 * the line. A schema file may end with {@code partitioned by SPEC}, in the syntax of
 * {@link PartitionDeclaration}.
 *
 * <p>Types, in any case: {@code boolean}, {@code int} ({@code integer}), {@code long} ({@code bigint}),
 * {@code float}, {@code double}, {@code decimal(P,S)} ({@code decimal(P)} is scale 0), {@code string},
 * {@code date}, {@code time}, {@code timestamp} (without time zone; {@code timestamp_ntz} too),
 * {@code timestamptz} (with one; {@code timestamp_ltz} too), {@code uuid} and {@code binary}. These are
 * Iceberg's names: Spark's {@code TIMESTAMP} is {@code timestamptz} here.
 *
 * @param schema the columns, with fresh field ids in declaration order
 * @param partitionBy the partition spec text of the declaration, if it has one
 * @param origin where the declaration came from ({@code --schema}, or {@code file F}), for messages
 */
public record TableDeclaration(Schema schema, Optional<String> partitionBy, String origin) {

  /** The type names a declaration accepts, for messages. */
  public static final String TYPE_NAMES = "boolean, int, long, float, double, decimal(P,S), string, date, time, "
      + "timestamp, timestamptz, uuid, binary";

  /**
   * Reads the columns given on the command line.
   *
   * @param text the columns, such as {@code "id long not null, as_of date"}
   * @param origin where they were given, such as {@code --schema}
   * @return the declaration, without partitioning
   * @throws InvalidLoadException naming the column and character at fault
   */
  public static TableDeclaration parse(String text, String origin) {
    return new Parser(text, origin, false).declaration();
  }

  /**
   * Reads a schema file: the columns, one per line or separated by commas, then optionally a line
   * {@code partitioned by SPEC}.
   *
   * @param file the file, UTF-8
   * @return the declaration
   * @throws InvalidLoadException if the file cannot be read, naming the line at fault otherwise
   */
  public static TableDeclaration read(Path file) {
    String text;
    try {
      byte[] bytes = Files.readAllBytes(file);
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw new InvalidLoadException("Schema file " + file + " is not UTF-8 text", e);
    } catch (IOException e) {
      throw new InvalidLoadException("Cannot read schema file " + file + ": " + e.getMessage(), e);
    }
    return new Parser(text, "schema file " + file, true).declaration();
  }

  /** A hand-written reader of the declaration syntax, tracking lines for its messages. */
  private static final class Parser {
    private final String text;
    private final String origin;
    private final boolean allowPartition;
    private int at;
    private boolean anyColumn; // whether a column was read: a comma before the first one is an empty column

    Parser(String text, String origin, boolean allowPartition) {
      this.text = text;
      this.origin = origin;
      this.allowPartition = allowPartition;
    }

    TableDeclaration declaration() {
      List<Types.NestedField> columns = new ArrayList<>();
      Set<String> names = new HashSet<>();
      Optional<String> partition = Optional.empty();
      while (true) {
        skipSeparators();
        if (at >= text.length()) {
          break;
        }
        int start = at;
        String name = name();
        if (allowPartition && name.equalsIgnoreCase("partitioned") && !quotedLast) {
          skipSpaces();
          if (!word().equalsIgnoreCase("by")) {
            throw error(start, "'partitioned' must be followed by 'by' and the partition spec");
          }
          partition = Optional.of(restWithoutComments().strip());
          if (partition.get().isEmpty()) {
            throw error(start, "'partitioned by' names no partition field");
          }
          break;
        }
        skipSpaces();
        Type type = type(name);
        skipSpaces();
        boolean required = false;
        int notAt = at;
        if (peekWord().equalsIgnoreCase("not")) {
          word();
          skipSpaces();
          if (!word().equalsIgnoreCase("null")) {
            throw error(notAt, "expected 'not null' after the type of column " + name);
          }
          required = true;
          skipSpaces();
        }
        if (at < text.length() && text.charAt(at) != ',' && text.charAt(at) != '\n' && text.charAt(at) != '\r'
            && text.charAt(at) != '#') {
          throw error(at, "unexpected '" + excerpt(at) + "' after column " + name
              + "; separate columns with commas or line breaks");
        }
        if (!names.add(name.toLowerCase(Locale.ROOT))) {
          throw error(start, "column " + name + " is declared twice");
        }
        int id = columns.size() + 1;
        columns.add(required ? Types.NestedField.required(id, name, type) : Types.NestedField.optional(id, name, type));
        anyColumn = true;
      }
      if (columns.isEmpty()) {
        throw new InvalidLoadException("The schema of " + origin + " declares no column; write columns as "
            + "'name type', such as \"id long not null, as_of date\"");
      }
      return new TableDeclaration(new Schema(columns), partition, origin);
    }

    private boolean quotedLast;

    private String name() {
      quotedLast = false;
      if (text.charAt(at) == '`') {
        quotedLast = true;
        int start = at;
        StringBuilder name = new StringBuilder();
        at++;
        while (true) {
          if (at >= text.length()) {
            throw error(start, "the quoted name is not closed with a backtick");
          }
          char c = text.charAt(at++);
          if (c == '`') {
            if (at < text.length() && text.charAt(at) == '`') {
              name.append('`');
              at++;
            } else {
              break;
            }
          } else {
            name.append(c);
          }
        }
        if (name.toString().isBlank()) {
          throw error(start, "a column name is empty");
        }
        return name.toString();
      }
      int start = at;
      String name = word();
      if (name.isEmpty()) {
        throw error(start, "expected a column name, found '" + excerpt(start) + "'");
      }
      return name;
    }

    private Type type(String column) {
      int start = at;
      String name = word().toLowerCase(Locale.ROOT);
      if (name.isEmpty()) {
        throw error(start, "column " + column + " has no type; types are " + TYPE_NAMES);
      }
      List<Integer> arguments = new ArrayList<>();
      skipSpaces();
      if (at < text.length() && text.charAt(at) == '(') {
        at++;
        while (true) {
          skipSpaces();
          int numberAt = at;
          String number = word();
          try {
            arguments.add(Integer.parseInt(number));
          } catch (NumberFormatException e) {
            throw error(numberAt, "expected a number in the type of column " + column + ", found '"
                + excerpt(numberAt) + "'");
          }
          skipSpaces();
          if (at < text.length() && text.charAt(at) == ',') {
            at++;
          } else if (at < text.length() && text.charAt(at) == ')') {
            at++;
            break;
          } else {
            throw error(at, "expected ',' or ')' in the type of column " + column);
          }
        }
      }
      Type type = switch (name) {
        case "boolean", "bool" -> Types.BooleanType.get();
        case "int", "integer" -> Types.IntegerType.get();
        case "long", "bigint" -> Types.LongType.get();
        case "float", "real" -> Types.FloatType.get();
        case "double" -> Types.DoubleType.get();
        case "decimal", "numeric" -> decimal(column, start, arguments);
        case "string" -> Types.StringType.get();
        case "date" -> Types.DateType.get();
        case "time" -> Types.TimeType.get();
        case "timestamp", "timestamp_ntz" -> Types.TimestampType.withoutZone();
        case "timestamptz", "timestamp_ltz" -> Types.TimestampType.withZone();
        case "uuid" -> Types.UUIDType.get();
        case "binary" -> Types.BinaryType.get();
        default -> throw error(start, "column " + column + " has type '" + name + "', which a declaration does not "
            + "know; types are " + TYPE_NAMES);
      };
      if (!arguments.isEmpty() && !(type instanceof Types.DecimalType)) {
        throw error(start, "type " + name + " of column " + column + " takes no arguments");
      }
      return type;
    }

    private Type decimal(String column, int start, List<Integer> arguments) {
      if (arguments.isEmpty() || arguments.size() > 2) {
        throw error(start, "column " + column + ": decimal needs a precision and a scale, such as decimal(10,2)");
      }
      int precision = arguments.get(0);
      int scale = arguments.size() == 2 ? arguments.get(1) : 0;
      if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
        throw error(start, "column " + column + ": decimal(" + precision + "," + scale + ") is out of range; the "
            + "precision is 1 to 38 and the scale 0 to the precision");
      }
      return Types.DecimalType.of(precision, scale);
    }

    private String word() {
      int start = at;
      while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_')) {
        at++;
      }
      return text.substring(start, at);
    }

    private String peekWord() {
      int saved = at;
      String word = word();
      at = saved;
      return word;
    }

    private void skipSpaces() {
      while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
        at++;
      }
      if (at < text.length() && text.charAt(at) == '#') {
        while (at < text.length() && text.charAt(at) != '\n') {
          at++;
        }
      }
    }

    /** Moves past commas, spaces, line ends and comments; refuses an empty column (two commas, or one first). */
    private void skipSeparators() {
      boolean comma = false;
      boolean first = !anyColumn;
      while (at < text.length()) {
        char c = text.charAt(at);
        if (c == ',') {
          if (comma || first) {
            throw error(at, first ? "a comma before the first column: an empty column"
                : "two commas with no column between them: an empty column");
          }
          comma = true;
          at++;
        } else if (Character.isWhitespace(c) || c == '\uFEFF') {
          at++;
        } else if (c == '#') {
          while (at < text.length() && text.charAt(at) != '\n') {
            at++;
          }
        } else {
          break;
        }
      }
    }

    private String restWithoutComments() {
      StringBuilder rest = new StringBuilder();
      for (String line : text.substring(at).split("\n", -1)) {
        int hash = line.indexOf('#');
        rest.append(hash < 0 ? line : line.substring(0, hash)).append(' ');
      }
      at = text.length();
      return rest.toString().replaceAll("\\s+", " ");
    }

    private String excerpt(int from) {
      int end = from;
      while (end < text.length() && end < from + 20 && text.charAt(end) != '\n') {
        end++;
      }
      return from >= text.length() ? "the end" : text.substring(from, end);
    }

    private InvalidLoadException error(int position, String what) {
      int line = 1;
      int column = 1;
      for (int i = 0; i < position && i < text.length(); i++) {
        if (text.charAt(i) == '\n') {
          line++;
          column = 1;
        } else {
          column++;
        }
      }
      String where = text.indexOf('\n') >= 0 ? "line " + line + ", character " + column : "character " + column;
      return new InvalidLoadException("Cannot read the schema of " + origin + " at " + where + ": " + what);
    }
  }
}
