package dev.transforms.runtime.internal.validate;

import dev.transforms.api.checks.Level;
import dev.transforms.runtime.internal.validate.ParameterModel.CheckModel;
import dev.transforms.runtime.spi.CheckSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.iceberg.types.Types;

/**
 * The rules of the check annotations of {@code dev.transforms.api.checks}, part of the
 * {@link TransformValidator}: each annotation's values must make sense on their own (columns named,
 * bounds in order, a usable class); whether the columns exist is known only against the output's
 * schema, when the build runs.
 */
final class CheckRules {

  /** The simple names of the check annotations. */
  static final Set<String> ANNOTATIONS = Set.of("PrimaryKey", "NotNull", "Unique", "RowCount", "AllowedValues",
      "ValueRange", "HasColumn", "Satisfies", "Check");

  private CheckRules() {}

  /**
   * Turns a parameter's check annotations into specs, or problems.
   *
   * @param where the parameter, for messages ("Parameter out of @Transform method T.m")
   * @param index the parameter's index, for problems
   * @param checks the annotations
   * @param problems where problems go
   * @return the specs of the valid annotations
   */
  static List<CheckSpec> specs(String where, int index, List<CheckModel> checks, List<Problem> problems) {
    List<CheckSpec> specs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (CheckModel check : checks) {
      String at = where + ": @" + check.annotation();
      Level level = Level.valueOf(check.text("level").isEmpty() ? "FAIL" : check.text("level"));
      String declared = check.text("name").strip();
      List<String> columns = check.texts("value");
      CheckSpec spec = switch (check.annotation()) {
        case "PrimaryKey", "NotNull", "Unique" -> {
          if (!columns(at, index, columns, problems)) {
            yield null;
          }
          String what = switch (check.annotation()) {
            case "PrimaryKey" -> "primary key";
            case "NotNull" -> "not null";
            default -> "unique";
          };
          String name = declared.isEmpty() ? what + " (" + String.join(", ", columns) + ")" : declared;
          yield switch (check.annotation()) {
            case "PrimaryKey" -> new CheckSpec.PrimaryKey(name, level, columns);
            case "NotNull" -> new CheckSpec.NotNull(name, level, columns);
            default -> new CheckSpec.Unique(name, level, columns);
          };
        }
        case "RowCount" -> rowCount(at, index, check, level, declared, problems);
        case "AllowedValues" -> {
          String column = check.text("column").strip();
          List<String> values = check.texts("values");
          if (column.isEmpty() || values.isEmpty()) {
            problems.add(Problem.onParameter(index, at + " needs a column and at least one value"));
            yield null;
          }
          yield new CheckSpec.AllowedValues(declared.isEmpty() ? column + " in " + values : declared, level, column,
              values);
        }
        case "ValueRange" -> {
          String column = check.text("column").strip();
          String min = check.text("min").strip();
          String max = check.text("max").strip();
          if (column.isEmpty() || (min.isEmpty() && max.isEmpty())) {
            problems.add(Problem.onParameter(index, at + " needs a column and a min, a max or both"));
            yield null;
          }
          String range = (min.isEmpty() ? "" : min + " <= ") + column + (max.isEmpty() ? "" : " <= " + max);
          yield new CheckSpec.ValueRange(declared.isEmpty() ? range : declared, level, column, min, max);
        }
        case "HasColumn" -> {
          String column = check.text("value").strip();
          String type = check.text("type").strip().toLowerCase(Locale.ROOT);
          if (column.isEmpty()) {
            problems.add(Problem.onParameter(index, at + " needs a column name"));
            yield null;
          }
          if (!type.isEmpty() && !isType(type)) {
            problems.add(Problem.onParameter(index, at + " has type '" + type + "', which is not an Iceberg type; "
                + "write it as Iceberg does: long, string, date, timestamptz, decimal(10,2)..."));
            yield null;
          }
          yield new CheckSpec.HasColumn(declared.isEmpty() ? "column " + column + (type.isEmpty() ? "" : " " + type)
              : declared, level, column, type);
        }
        case "Satisfies" -> {
          String predicate = check.text("value").strip();
          if (predicate.isEmpty()) {
            problems.add(Problem.onParameter(index, at + " needs a predicate, such as \"amount >= 0\""));
            yield null;
          }
          yield new CheckSpec.Satisfies(declared.isEmpty() ? predicate : declared, level, predicate);
        }
        case "Check" -> {
          String className = check.text("value");
          String problem = check.text("classProblem");
          if (!problem.isEmpty()) {
            problems.add(Problem.onParameter(index, at + "(" + simple(className) + ".class): " + problem));
            yield null;
          }
          String simple = className.substring(Math.max(className.lastIndexOf('.'), className.lastIndexOf('$')) + 1);
          yield new CheckSpec.Custom(declared.isEmpty() ? simple : declared, level, className);
        }
        default -> null;
      };
      if (spec == null) {
        continue;
      }
      if (!names.add(spec.name())) {
        problems.add(Problem.onParameter(index, where + " declares two checks named '" + spec.name()
            + "'; give one a different name with name = \"...\""));
        continue;
      }
      specs.add(spec);
    }
    return specs;
  }

  private static boolean columns(String at, int index, List<String> columns, List<Problem> problems) {
    if (columns.isEmpty() || columns.stream().anyMatch(String::isBlank)) {
      problems.add(Problem.onParameter(index, at + " needs at least one column name, and no blank one"));
      return false;
    }
    if (new HashSet<>(columns).size() != columns.size()) {
      problems.add(Problem.onParameter(index, at + " names a column twice: " + columns));
      return false;
    }
    return true;
  }

  private static CheckSpec rowCount(String at, int index, CheckModel check, Level level, String declared,
      List<Problem> problems) {
    long min = check.number("min", 0L).longValue();
    long max = check.number("max", Long.MAX_VALUE).longValue();
    double drop = check.number("maxDropPercent", -1.0).doubleValue();
    double growth = check.number("maxGrowthPercent", -1.0).doubleValue();
    if (min < 0 || max < min) {
      problems.add(Problem.onParameter(index, at + " has min " + min + " and max " + max
          + "; they must satisfy 0 <= min <= max"));
      return null;
    }
    if (drop > 100) {
      problems.add(Problem.onParameter(index, at + " has maxDropPercent " + drop + "; a drop is at most 100 percent"));
      return null;
    }
    List<String> parts = new ArrayList<>();
    if (min > 0) {
      parts.add("at least " + min);
    }
    if (max < Long.MAX_VALUE) {
      parts.add("at most " + max);
    }
    if (drop >= 0) {
      parts.add("at most " + drop + "% fewer");
    }
    if (growth >= 0) {
      parts.add("at most " + growth + "% more");
    }
    String name = declared.isEmpty() ? "row count" + (parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")")
        : declared;
    return new CheckSpec.RowCount(name, level, min, max, drop, growth);
  }

  private static boolean isType(String type) {
    try {
      Types.fromPrimitiveString(type);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static String simple(String className) {
    return className.substring(className.lastIndexOf('.') + 1).replace('$', '.');
  }
}
