package dev.transforms.runtime.internal.plan;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The names an error offers when a transform name matches none: every name of a small pipeline, the
 * closest few of a large one, so that the error stays one line a person can read.
 */
public final class NameChoices {

  /** Up to this many names, all are listed. */
  static final int ALL_UP_TO = 8;
  /** The closest names listed when there are more. */
  static final int CLOSEST = 5;

  private NameChoices() {}

  /**
   * The names to offer for a name that matched none.
   *
   * @param wanted the name given
   * @param names every transform's name
   * @return {@code "a, b, c"}, or {@code "a, b (closest of 40; transforms plan lists them all)"}
   */
  public static String describe(String wanted, Collection<String> names) {
    TreeSet<String> sorted = new TreeSet<>(names);
    if (sorted.size() <= ALL_UP_TO) {
      return String.join(", ", sorted);
    }
    String key = wanted.toLowerCase(Locale.ROOT);
    List<String> closest = new ArrayList<>(sorted);
    closest.sort(Comparator.comparingInt((String n) -> distance(key, n.toLowerCase(Locale.ROOT))).thenComparing(n -> n));
    return String.join(", ", closest.subList(0, CLOSEST)) + " (the closest of " + sorted.size()
        + "; transforms plan lists them all)";
  }

  /**
   * The one name a person most likely meant: the only transform whose method part is the name given
   * ({@code cleanOrders} for {@code CleanOrders.cleanOrders}), letter case aside, or else the only name within
   * two edits of it.
   *
   * @param wanted the name given
   * @param names every transform's name
   * @return the name, or empty when none or several fit
   */
  public static java.util.Optional<String> meant(String wanted, Collection<String> names) {
    String key = methodPart(wanted).toLowerCase(Locale.ROOT);
    List<String> same = new TreeSet<>(names).stream()
        .filter(n -> methodPart(n).toLowerCase(Locale.ROOT).equals(key)).toList();
    if (same.size() == 1) {
      return java.util.Optional.of(same.get(0));
    }
    String lower = wanted.toLowerCase(Locale.ROOT);
    List<String> near = new TreeSet<>(names).stream()
        .filter(n -> editDistance(lower, n.toLowerCase(Locale.ROOT)) <= 2).toList();
    return near.size() == 1 ? java.util.Optional.of(near.get(0)) : java.util.Optional.empty();
  }

  /**
   * The error's words for a name that matched none: a suggestion when one name fits, then the names to
   * choose from.
   *
   * @param wanted the name given
   * @param names every transform's name
   * @return {@code "No transform is named X; did you mean Y?; transforms: ..."}
   */
  public static String noSuchTransform(String wanted, Collection<String> names) {
    return "No transform is named " + wanted + meant(wanted, names).map(n -> "; did you mean " + n + "?")
        .orElse("") + "; transforms: " + describe(wanted, names);
  }

  private static String methodPart(String name) {
    return name.substring(name.lastIndexOf('.') + 1);
  }

  /** Edit distance, with a name containing the wanted text (or its method part) counted as close. */
  static int distance(String wanted, String name) {
    String method = wanted.contains(".") ? wanted.substring(wanted.lastIndexOf('.') + 1) : wanted;
    if (!method.isEmpty() && name.contains(method)) {
      return Math.max(0, name.length() - method.length()) / 4;
    }
    return editDistance(wanted, name);
  }

  /** Levenshtein's distance between two names. */
  private static int editDistance(String wanted, String name) {
    int[] previous = new int[name.length() + 1];
    int[] current = new int[name.length() + 1];
    for (int j = 0; j <= name.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= wanted.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= name.length(); j++) {
        int substitution = previous[j - 1] + (wanted.charAt(i - 1) == name.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[name.length()];
  }
}
