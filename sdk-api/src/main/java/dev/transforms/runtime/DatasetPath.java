package dev.transforms.runtime;

import dev.transforms.api.InvalidPathException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An absolute dataset path such as {@code /Examples/iceberg/row-updates}: the name a transform uses
 * for a table or file dataset, independent of the catalog it lives in.
 *
 * <p>Rules, each reported by name when broken: the path starts with {@code /}; it has at least one
 * segment; no segment is empty (no {@code //}, no trailing {@code /}); no segment is {@code .} or
 * {@code ..}; no segment starts or ends with a space (it would look like another dataset's name); no
 * character is a control character, {@code #} or {@code ?} (object stores' file IO and PyIceberg read a table
 * location as a URI and cut it there, so the table's files would land where its metadata cannot find them);
 * the whole path is at most {@value #MAX_LENGTH}
 * characters and each segment at most {@value #MAX_SEGMENT_LENGTH}. Anything else, spaces, quotes,
 * backticks and semicolons included, is legal: resolution quotes every part, so a legal path is
 * always a safe identifier.
 *
 * <p>Instances are immutable and compare by their text.
 */
public final class DatasetPath implements Comparable<DatasetPath> {

  /** The longest path accepted, in characters. */
  public static final int MAX_LENGTH = 1024;

  /** The longest segment accepted, in characters. */
  public static final int MAX_SEGMENT_LENGTH = 255;

  private final String text;
  private final List<String> segments;

  private DatasetPath(String text, List<String> segments) {
    this.text = text;
    this.segments = segments;
  }

  /**
   * Parses and checks a path.
   *
   * @param text the path, such as {@code /Examples/iceberg/row-updates}
   * @return the path
   * @throws InvalidPathException if the path breaks a rule; the message quotes it and names the rule
   */
  public static DatasetPath of(String text) {
    if (text == null) {
      throw new InvalidPathException("Invalid dataset path: null; a path is absolute, like /Examples/iceberg/row-updates");
    }
    if (text.isEmpty()) {
      throw invalid(text, "it is empty; a path is absolute, like /Examples/iceberg/row-updates");
    }
    if (text.length() > MAX_LENGTH) {
      throw invalid(text, "it is " + text.length() + " characters long; the limit is " + MAX_LENGTH);
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        throw invalid(text, String.format("it contains the control character U+%04X at position %d", (int) c, i));
      }
      if (c == '#' || c == '?') {
        throw invalid(text, "it contains '" + c + "' at position " + i + ", which object stores (S3, GCS, Azure) and "
            + "PyIceberg read in a table's location as the start of a URI " + (c == '#' ? "fragment" : "query")
            + " and cut off: the table's files would land where its metadata cannot find them. Use another "
            + "character, such as '-' or '_'");
      }
    }
    if (text.charAt(0) != '/') {
      throw invalid(text, "it is not absolute; start it with '/'");
    }
    if (text.length() == 1) {
      throw invalid(text, "it names the root, not a dataset; add at least one segment");
    }
    if (text.endsWith("/")) {
      throw invalid(text, "it ends with '/'; remove the trailing slash");
    }
    List<String> parts = new ArrayList<>();
    for (String segment : text.substring(1).split("/", -1)) {
      if (segment.isEmpty()) {
        throw invalid(text, "it has an empty segment ('//')");
      }
      if (segment.equals(".") || segment.equals("..")) {
        throw invalid(text, "it has a '" + segment + "' segment; relative segments are not allowed");
      }
      if (Character.isWhitespace(segment.charAt(0)) || Character.isWhitespace(segment.charAt(segment.length() - 1))) {
        throw invalid(text, "its segment '" + segment + "' " + (Character.isWhitespace(segment.charAt(0))
            ? "starts" : "ends") + " with a space; a name with spaces at either end looks like another, so remove "
            + "them");
      }
      if (segment.length() > MAX_SEGMENT_LENGTH) {
        throw invalid(text, "a segment is " + segment.length() + " characters long; the limit is " + MAX_SEGMENT_LENGTH);
      }
      parts.add(segment);
    }
    return new DatasetPath(text, Collections.unmodifiableList(parts));
  }

  private static InvalidPathException invalid(String text, String rule) {
    return new InvalidPathException("Invalid dataset path '" + printable(text) + "': " + rule);
  }

  /** Shows control characters as escapes so the message itself stays on one line. */
  private static String printable(String text) {
    String shown = text.length() > 120 ? text.substring(0, 120) + "..." : text;
    StringBuilder out = new StringBuilder(shown.length());
    for (int i = 0; i < shown.length(); i++) {
      char c = shown.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        out.append(String.format("\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * The path's segments, in order.
   *
   * @return an unmodifiable list of at least one segment
   */
  public List<String> segments() {
    return segments;
  }

  /**
   * The last segment, the dataset's own name.
   *
   * @return the name
   */
  public String name() {
    return segments.get(segments.size() - 1);
  }

  /**
   * Whether this path equals {@code prefix} or lies below it, segment by segment
   * ({@code /a/b} is under {@code /a} but not under {@code /a/bc}).
   *
   * @param prefix a path prefix; {@code /} is the prefix of every path
   * @return whether this path is under the prefix
   */
  public boolean isUnder(String prefix) {
    if (prefix.equals("/")) {
      return true;
    }
    String trimmed = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    return text.equals(trimmed) || text.startsWith(trimmed + "/");
  }

  @Override
  public int compareTo(DatasetPath other) {
    return text.compareTo(other.text);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof DatasetPath && ((DatasetPath) other).text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /** Returns the path text, such as {@code /Examples/iceberg/row-updates}. */
  @Override
  public String toString() {
    return text;
  }
}
