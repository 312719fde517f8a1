package dev.transforms.architecture;

import com.tngtech.archunit.library.freeze.ViolationLineMatcher;

/**
 * Matches a cycle found today with a frozen one by the packages it goes through, not by the calls that
 * make each step: a new call along a known cycle is not a new cycle, and the baseline lists cycles.
 */
final class SameCycle implements ViolationLineMatcher {

  @Override
  public boolean matches(String actual, String stored) {
    return path(actual).equals(path(stored));
  }

  /**
   * The cycle's packages, on one line: what ArchUnit writes before it lists each step's dependencies.
   *
   * @param violation a cycle as ArchUnit reports it, or as the store holds it
   * @return the packages it goes through
   */
  static String path(String violation) {
    int details = violation.indexOf("\n  1. ");
    String head = details < 0 ? violation : violation.substring(0, details);
    return head.replaceAll("\\s+", " ").trim();
  }
}
