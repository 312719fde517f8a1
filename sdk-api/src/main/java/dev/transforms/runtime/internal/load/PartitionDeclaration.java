package dev.transforms.runtime.internal.load;

import dev.transforms.api.InvalidLoadException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;

/**
 * A partition spec written as text, the way Iceberg's Spark DDL writes it after {@code PARTITIONED BY}:
 * fields separated by commas, each a column (identity) or a transform of one: {@code days(created_at)},
 * {@code hours(ts)}, {@code months(ts)}, {@code years(ts)}, {@code bucket(16, id)},
 * {@code truncate(4, name)}. The singular names ({@code day}, {@code hour}, {@code month},
 * {@code year}) and {@code identity(col)} are accepted too.
 */
public final class PartitionDeclaration {

  private static final Pattern FIELD = Pattern.compile(
      "\\s*(?:([A-Za-z_]+)\\s*\\(\\s*(?:(\\d+)\\s*,\\s*)?(`(?:[^`]|``)+`|[^,()\\s]+)\\s*\\)|(`(?:[^`]|``)+`|[^,()\\s]+))\\s*");

  private PartitionDeclaration() {}

  /**
   * Builds the partition spec a text describes over a schema.
   *
   * @param text the fields, such as {@code "days(created_at), bucket(16, id)"}; blank for none
   * @param schema the table's schema, whose columns the fields name
   * @param origin where the text was given, such as {@code --partition-by}, for messages
   * @return the spec; unpartitioned for a blank text
   * @throws InvalidLoadException naming the field that does not parse, an unknown transform or column,
   *     or a transform that does not apply to the column's type
   */
  public static PartitionSpec toSpec(String text, Schema schema, String origin) {
    if (text == null || text.isBlank()) {
      return PartitionSpec.unpartitioned();
    }
    PartitionSpec.Builder builder = PartitionSpec.builderFor(schema);
    for (String field : split(text)) {
      Matcher matcher = FIELD.matcher(field);
      if (!matcher.matches()) {
        throw new InvalidLoadException("Cannot read partition field '" + field.strip() + "' of " + origin
            + "; write a column or a transform of one: days(created_at), bucket(16, id), truncate(4, name)");
      }
      String transform = matcher.group(1) == null ? "identity" : matcher.group(1).toLowerCase(Locale.ROOT);
      String column = unquote(matcher.group(1) == null ? matcher.group(4) : matcher.group(3));
      String width = matcher.group(2);
      if (schema.findField(column) == null) {
        throw new InvalidLoadException("Partition field '" + field.strip() + "' of " + origin + " names column "
            + column + ", which the schema does not have; columns: " + schema.columns().stream()
                .map(c -> c.name()).toList());
      }
      boolean needsWidth = transform.equals("bucket") || transform.equals("truncate");
      if (needsWidth != (width != null)) {
        throw new InvalidLoadException("Partition field '" + field.strip() + "' of " + origin + ": "
            + (needsWidth ? transform + " takes a number first, such as " + transform + "(16, " + column + ")"
                : transform + " takes only the column"));
      }
      try {
        switch (transform) {
          case "identity" -> builder.identity(column);
          case "years", "year" -> builder.year(column);
          case "months", "month" -> builder.month(column);
          case "days", "day" -> builder.day(column);
          case "hours", "hour" -> builder.hour(column);
          case "bucket" -> builder.bucket(column, Integer.parseInt(width));
          case "truncate" -> builder.truncate(column, Integer.parseInt(width));
          default -> throw new InvalidLoadException("Partition field '" + field.strip() + "' of " + origin
              + " uses transform " + transform + ", which Iceberg does not have; use years, months, days, hours, "
              + "bucket, truncate or a bare column");
        }
      } catch (IllegalArgumentException | org.apache.iceberg.exceptions.ValidationException e) {
        throw new InvalidLoadException("Partition field '" + field.strip() + "' of " + origin + " does not apply to "
            + "column " + column + " (" + schema.findType(column) + "): " + e.getMessage(), e);
      }
    }
    try {
      return builder.build();
    } catch (IllegalArgumentException | org.apache.iceberg.exceptions.ValidationException e) {
      throw new InvalidLoadException("The partitioning '" + text.strip() + "' of " + origin + " does not apply to "
          + "its columns (" + schema.columns().stream().map(c -> c.name() + " " + c.type()).toList() + "): "
          + e.getMessage(), e);
    }
  }

  /** Splits at the commas that separate fields, not those inside parentheses or backticks. */
  private static List<String> split(String text) {
    List<String> fields = new ArrayList<>();
    int depth = 0;
    boolean quoted = false;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '`') {
        quoted = !quoted;
      } else if (!quoted && c == '(') {
        depth++;
      } else if (!quoted && c == ')') {
        depth--;
      } else if (!quoted && depth == 0 && c == ',') {
        fields.add(text.substring(start, i));
        start = i + 1;
      }
    }
    fields.add(text.substring(start));
    return fields;
  }

  private static String unquote(String name) {
    return name.startsWith("`") ? name.substring(1, name.length() - 1).replace("``", "`") : name;
  }
}
