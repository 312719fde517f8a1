package dev.transforms.api.checks;

/** What a failing check does to the build. */
public enum Level {
  /** The output is not published; the transform fails. */
  FAIL,
  /** The output is published; the failure is reported. */
  WARN
}
