package dev.transforms.runtime;

import java.util.Locale;

/**
 * A count with its noun in the right number, as every report, page and message of the SDK prints one:
 * {@code 1 row}, {@code 0 rows}, {@code 2 files}, {@code 1 transform}.
 */
public final class Counts {

  private Counts() {}

  /**
   * A count and a noun whose plural adds {@code s}.
   *
   * @param count the count
   * @param singular the noun for one, such as {@code row}, {@code file}, {@code snapshot}
   * @return such as {@code 1 row} or {@code 3 rows}
   */
  public static String of(long count, String singular) {
    return of(count, singular, singular + "s");
  }

  /**
   * A count and a noun with its own plural.
   *
   * @param count the count
   * @param singular the noun for one
   * @param plural the noun for any other count
   * @return such as {@code 1 entry} or {@code 0 entries}
   */
  public static String of(long count, String singular, String plural) {
    return count + " " + (count == 1 ? singular : plural);
  }

  /**
   * A count with thousands separators, such as {@code 1,000,000 rows}.
   *
   * @param count the count
   * @param singular the noun for one, its plural adding {@code s}
   * @return the text
   */
  public static String grouped(long count, String singular) {
    return String.format(Locale.ROOT, "%,d %s", count, count == 1 ? singular : singular + "s");
  }

  /**
   * The verb of a count of rows, as in {@code 1 row violates it} and {@code 2 rows violate it}.
   *
   * @param count the count
   * @param singular the verb for one, such as {@code violates}
   * @param plural the verb for any other count, such as {@code violate}
   * @return the verb
   */
  public static String verb(long count, String singular, String plural) {
    return count == 1 ? singular : plural;
  }
}
