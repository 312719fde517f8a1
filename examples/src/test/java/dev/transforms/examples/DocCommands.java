package dev.transforms.examples;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines of a runnable shell block, split into words the way a POSIX shell splits a simple command:
 * single quotes, double quotes (with {@code \"} and {@code \\}), backslash escapes, and a {@code #}
 * comment after a blank. Nothing is expanded: a runnable block holds plain commands only.
 */
final class DocCommands {
  private DocCommands() {}

  /** The words of one command line; empty for a blank or comment line. */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '#' && word == null) {
        break;
      }
      if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
        continue;
      }
      if (word == null) {
        word = new StringBuilder();
      }
      if (c == '\'') {
        int end = line.indexOf('\'', i + 1);
        if (end < 0) {
          throw new IllegalArgumentException("unterminated ' in: " + line);
        }
        word.append(line, i + 1, end);
        i = end;
      } else if (c == '"') {
        i++;
        while (i < line.length() && line.charAt(i) != '"') {
          if (line.charAt(i) == '\\' && i + 1 < line.length() && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
            i++;
          }
          word.append(line.charAt(i));
          i++;
        }
        if (i == line.length()) {
          throw new IllegalArgumentException("unterminated \" in: " + line);
        }
      } else if (c == '\\' && i + 1 < line.length()) {
        word.append(line.charAt(++i));
      } else if ("$`|&;<>()".indexOf(c) >= 0) {
        throw new IllegalArgumentException("'" + c + "' needs a shell; a runnable block holds plain commands: " + line);
      } else {
        word.append(c);
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }

  /**
   * Whether output matches what a page shows: line by line, where a line {@code ...} stands for any
   * number of lines and {@code ...} inside a line for any text.
   *
   * @return empty if it matches, else what differs
   */
  static String mismatch(String expected, String actual) {
    List<String> want = expected.lines().toList();
    List<String> got = actual.lines().toList();
    return matches(want, 0, got, 0) ? "" : "expected (... is anything):\n" + expected + "\nbut the output was:\n" + actual;
  }

  private static boolean matches(List<String> want, int w, List<String> got, int g) {
    if (w == want.size()) {
      return g == got.size();
    }
    if (want.get(w).strip().equals("...")) {
      for (int skip = g; skip <= got.size(); skip++) {
        if (matches(want, w + 1, got, skip)) {
          return true;
        }
      }
      return false;
    }
    return g < got.size() && lineMatches(want.get(w), got.get(g)) && matches(want, w + 1, got, g + 1);
  }

  private static boolean lineMatches(String want, String got) {
    String[] parts = want.split("\\.\\.\\.", -1);
    if (parts.length == 1) {
      return want.equals(got);
    }
    if (!got.startsWith(parts[0])) {
      return false;
    }
    int at = parts[0].length();
    for (int i = 1; i < parts.length - 1; i++) {
      int found = got.indexOf(parts[i], at);
      if (found < 0) {
        return false;
      }
      at = found + parts[i].length();
    }
    String last = parts[parts.length - 1];
    return got.length() - last.length() >= at && got.endsWith(last);
  }
}
