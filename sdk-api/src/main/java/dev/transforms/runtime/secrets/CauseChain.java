package dev.transforms.runtime.secrets;

import dev.transforms.api.TransformsException;
import dev.transforms.runtime.secrets.SecretMasker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * An error and its causes as a user reads them: one line per exception, its class and the first line
 * of its message, secrets masked. The build report and the command line print errors this way.
 *
 * <p>Why every cause: the exception that reaches the top is often a wrapper whose own message says
 * little ({@code Exception thrown in awaitResult:}, {@code Unknown failure}, or none at all) while the
 * reason sits a few causes down (a missing data file, a read-only database, a class not found). Why
 * the first line only: Spark and JDBC drivers put whole stack traces into messages. The one exception
 * is a list: lines of a message that start with {@code "- "} (this SDK lists every differing column of
 * a schema mismatch that way) are kept under their exception's line. A cause whose line is already
 * contained in a line printed before it (a wrapper built as {@code new RuntimeException(cause)}, or a
 * message that quotes its cause) is left out, so the same words are not printed twice; its own causes
 * are still shown.
 */
public final class CauseChain {

  /** The prefix of every line after the first. */
  public static final String CAUSED_BY = "caused by: ";

  private final List<Entry> entries;

  private CauseChain(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /**
   * One exception of the chain as printed.
   *
   * @param line the class and the first line of the message
   * @param items the message's list items ({@code - ...} lines), without the dash
   */
  public record Entry(String line, List<String> items) {}

  /**
   * Describes an error and its causes.
   *
   * @param error the error
   * @param masker hides secrets in every message
   * @return the chain
   */
  public static CauseChain of(Throwable error, SecretMasker masker) {
    List<Entry> entries = new ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
      String message = t.getMessage() == null ? "" : masker.mask(t.getMessage().strip());
      String first = firstLine(message);
      String line = first.isEmpty() ? className(t) : className(t) + ": " + first;
      // A message of a few characters could sit in another by chance: only its whole line counts then.
      if (t != error && entries.stream().anyMatch(e -> e.line().contains(line)
          || (first.length() >= 8 && e.line().contains(first)))) {
        continue;
      }
      List<String> items = message.lines().skip(1).map(String::strip).filter(l -> l.startsWith("- "))
          .map(l -> l.substring(2).strip()).toList();
      entries.add(new Entry(line, items));
    }
    return new CauseChain(entries);
  }

  /**
   * The exceptions kept: the error first, then each cause that adds something.
   *
   * @return the entries
   */
  public List<Entry> entries() {
    return entries;
  }

  /**
   * The error's own line.
   *
   * @return the class and first line of the message of the outermost error
   */
  public String summary() {
    return entries.get(0).line();
  }

  /**
   * The chain as text: the error's line after {@code prefix}, every cause on a line of its own
   * indented by {@code indent} and starting with {@value #CAUSED_BY}, list items below their line.
   *
   * @param prefix what the first line starts with, such as {@code "error: "}
   * @param indent what every cause line starts with
   * @return the text, ending with a line break
   */
  public String format(String prefix, String indent) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < entries.size(); i++) {
      out.append(i == 0 ? prefix : indent + CAUSED_BY).append(entries.get(i).line()).append(System.lineSeparator());
      for (String item : entries.get(i).items()) {
        out.append(indent).append("    - ").append(item).append(System.lineSeparator());
      }
    }
    return out.toString();
  }

  /**
   * The full stack trace of an error with every cause and suppressed exception, secrets masked, for
   * {@code --verbose}.
   *
   * @param error the error
   * @param masker hides secrets
   * @return the stack trace
   */
  public static String stackTrace(Throwable error, SecretMasker masker) {
    StringWriter text = new StringWriter();
    try (PrintWriter writer = new PrintWriter(text)) {
      error.printStackTrace(writer);
    }
    return masker.mask(text.toString());
  }

  /**
   * The error itself when no message in its chain holds a secret; otherwise a copy of the whole chain
   * with every message masked, each exception keeping its class name (as printed) and stack trace.
   * Errors kept in a report can then be printed or logged by anyone without leaking a secret.
   *
   * @param error the error
   * @param masker hides secrets
   * @return the error, or its masked copy
   */
  public static Throwable masked(Throwable error, SecretMasker masker) {
    List<Throwable> chain = new ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    boolean secret = false;
    for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
      chain.add(t);
      secret |= t.getMessage() != null && !masker.mask(t.getMessage()).equals(t.getMessage());
    }
    if (!secret) {
      return error;
    }
    Throwable copy = null;
    for (int i = chain.size() - 1; i >= 0; i--) {
      Throwable original = chain.get(i);
      copy = new MaskedException(className(original), masker.mask(original.getMessage()), copy);
      copy.setStackTrace(original.getStackTrace());
    }
    return copy;
  }

  /** SDK exceptions by their simple name (they are the documented API), all others in full. */
  private static String className(Throwable t) {
    if (t instanceof MaskedException masked) {
      return masked.className;
    }
    Class<?> type = t.getClass();
    return type.getName().startsWith("dev.transforms.api.") ? type.getSimpleName() : type.getName();
  }

  private static String firstLine(String message) {
    int newline = message.indexOf('\n');
    String first = newline < 0 ? message : message.substring(0, newline);
    return first.strip();
  }

  /** A copy of an exception whose message held a secret; it prints as the original class. */
  private static final class MaskedException extends TransformsException {
    private static final long serialVersionUID = 1L;

    private final String className;

    MaskedException(String className, String message, Throwable cause) {
      super(message, cause);
      this.className = className;
    }

    @Override
    public String toString() {
      return getMessage() == null ? className : className + ": " + getMessage();
    }
  }
}
