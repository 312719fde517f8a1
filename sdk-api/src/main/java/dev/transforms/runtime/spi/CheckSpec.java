package dev.transforms.runtime.spi;

import dev.transforms.api.checks.Level;
import java.util.List;

/**
 * One validated data expectation on an output: what it checks, its name in reports and its level.
 * Built from the check annotations of {@code dev.transforms.api.checks} by the validator.
 */
public sealed interface CheckSpec {

  /**
   * The check's name in reports: the one declared, or one derived from what it checks.
   *
   * @return the name
   */
  String name();

  /**
   * What a failure does.
   *
   * @return the level
   */
  Level level();

  /**
   * The columns the check reads, for reading no more than it needs.
   *
   * @return column names; empty for checks that read no column values
   */
  List<String> columns();

  /**
   * Whether the check holds for a table when it holds for the old rows and, separately, for the rows
   * an incremental build appended: such checks read only the appended rows.
   *
   * @return whether appended rows suffice
   */
  default boolean rowWise() {
    return false;
  }

  /**
   * The key columns together unique and not null.
   *
   * @param name the name
   * @param level the level
   * @param columns the key columns
   */
  record PrimaryKey(String name, Level level, List<String> columns) implements CheckSpec {}

  /**
   * No null in the columns.
   *
   * @param name the name
   * @param level the level
   * @param columns the columns
   */
  record NotNull(String name, Level level, List<String> columns) implements CheckSpec {
    @Override
    public boolean rowWise() {
      return true;
    }
  }

  /**
   * The columns together unique, rows with a null in them left out.
   *
   * @param name the name
   * @param level the level
   * @param columns the columns
   */
  record Unique(String name, Level level, List<String> columns) implements CheckSpec {}

  /**
   * The row count within bounds, absolute and relative to the last published version.
   *
   * @param name the name
   * @param level the level
   * @param min the fewest rows
   * @param max the most rows
   * @param maxDropPercent the largest drop allowed, in percent; negative for none
   * @param maxGrowthPercent the largest growth allowed, in percent; negative for none
   */
  record RowCount(String name, Level level, long min, long max, double maxDropPercent, double maxGrowthPercent)
      implements CheckSpec {
    @Override
    public List<String> columns() {
      return List.of();
    }

    /**
     * Whether the check compares with the last published version.
     *
     * @return whether a drop or growth limit is set
     */
    public boolean relative() {
      return maxDropPercent >= 0 || maxGrowthPercent >= 0;
    }

    /**
     * What is wrong with a row count, one line per bound it breaks.
     *
     * @param published the rows of the last published version; empty on a first build (the relative
     *     limits then do not apply)
     * @param count the rows staged
     * @return the problems; empty when the count is within every bound
     */
    public List<String> problems(java.util.OptionalLong published, long count) {
      List<String> problems = new java.util.ArrayList<>();
      if (count < min) {
        problems.add(dev.transforms.runtime.Counts.of(count, "row") + ", fewer than the minimum " + min);
      }
      if (count > max) {
        problems.add(dev.transforms.runtime.Counts.of(count, "row") + ", more than the maximum " + max);
      }
      if (published.isPresent() && published.getAsLong() > 0) {
        long before = published.getAsLong();
        double change = 100.0 * (count - before) / before;
        if (maxDropPercent >= 0 && -change > maxDropPercent) {
          problems.add(dev.transforms.runtime.Counts.of(count, "row") + ", " + String.format(java.util.Locale.ROOT, "%.1f", -change) + "% fewer than the "
              + before + " published (at most " + maxDropPercent + "% allowed)");
        }
        if (maxGrowthPercent >= 0 && change > maxGrowthPercent) {
          problems.add(dev.transforms.runtime.Counts.of(count, "row") + ", " + String.format(java.util.Locale.ROOT, "%.1f", change) + "% more than the "
              + before + " published (at most " + maxGrowthPercent + "% allowed)");
        }
      }
      return problems;
    }
  }

  /**
   * Every non-null value of a column in a list.
   *
   * @param name the name
   * @param level the level
   * @param column the column
   * @param values the allowed values, as written
   */
  record AllowedValues(String name, Level level, String column, List<String> values) implements CheckSpec {
    @Override
    public List<String> columns() {
      return List.of(column);
    }

    @Override
    public boolean rowWise() {
      return true;
    }
  }

  /**
   * Every non-null value of a column within inclusive bounds.
   *
   * @param name the name
   * @param level the level
   * @param column the column
   * @param min the lower bound as written; empty for none
   * @param max the upper bound as written; empty for none
   */
  record ValueRange(String name, Level level, String column, String min, String max) implements CheckSpec {
    @Override
    public List<String> columns() {
      return List.of(column);
    }

    @Override
    public boolean rowWise() {
      return true;
    }
  }

  /**
   * The table has a column, optionally of a type.
   *
   * @param name the name
   * @param level the level
   * @param column the column
   * @param type the Iceberg type as written; empty for any
   */
  record HasColumn(String name, Level level, String column, String type) implements CheckSpec {
    @Override
    public List<String> columns() {
      return List.of();
    }
  }

  /**
   * No row for which a filter-string predicate is false.
   *
   * @param name the name
   * @param level the level
   * @param predicate the filter string
   */
  record Satisfies(String name, Level level, String predicate) implements CheckSpec {
    @Override
    public List<String> columns() {
      return List.of();
    }

    @Override
    public boolean rowWise() {
      return true;
    }
  }

  /**
   * A check written in Java.
   *
   * @param name the name
   * @param level the level
   * @param className the class implementing {@code OutputCheck}
   */
  record Custom(String name, Level level, String className) implements CheckSpec {
    @Override
    public List<String> columns() {
      return List.of();
    }
  }
}
