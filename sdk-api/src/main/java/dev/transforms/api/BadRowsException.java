package dev.transforms.api;

import java.util.List;

/**
 * Rows of the files given to a load do not fit the declared schema: a value that does not parse as
 * its column's type, a missing value in a required column, a line with too many or too few fields.
 * Nothing was written: no table was created or changed.
 *
 * <p>The message starts with the count and lists each bad row as {@code - FILE:LINE[:FIELD]: what is
 * wrong}, at most {@value #LISTED} of them; {@link #badRows()} holds the same lines.
 */
public class BadRowsException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /** How many bad rows the message lists at most. */
  public static final int LISTED = 20;

  private final long count;
  private final List<String> badRows;

  /**
   * Creates the exception.
   *
   * @param count how many bad rows were found
   * @param badRows the first ones, each as {@code FILE:LINE[:FIELD]: what is wrong}
   */
  public BadRowsException(long count, List<String> badRows) {
    super(message(count, badRows));
    this.count = count;
    this.badRows = List.copyOf(badRows);
  }

  private static String message(long count, List<String> badRows) {
    StringBuilder text = new StringBuilder();
    text.append(count).append(count == 1 ? " bad row" : " bad rows").append("; nothing was written");
    badRows.stream().limit(LISTED).forEach(row -> text.append("\n  - ").append(row));
    if (count > Math.min(LISTED, badRows.size())) {
      text.append("\n  - ... and ").append(count - Math.min(LISTED, badRows.size())).append(" more");
    }
    return text.toString();
  }

  /**
   * How many bad rows were found.
   *
   * @return the count, at least the number of rows listed
   */
  public long count() {
    return count;
  }

  /**
   * The bad rows found first, each as {@code FILE:LINE[:FIELD]: what is wrong}.
   *
   * @return at most {@value #LISTED} rows per file read
   */
  public List<String> badRows() {
    return badRows;
  }
}
