package dev.transforms.singlenode.filter;

import dev.transforms.api.TransformsException;

/**
 * A row filter string cannot be turned into an Iceberg expression. {@link RowFilter#parse} throws it for
 * both kinds of mistake, so callers have one exception to catch:
 *
 * <ul>
 *   <li>Syntax: the text does not follow the grammar. The message gives the 1-based position, says what was
 *       expected, and repeats the filter with a caret under the offending place:
 *       <pre>
 * Invalid row filter at position 9: expected a value after '&lt;'
 *   as_of &lt;
 *           ^</pre>
 *   <li>Schema: the text is well formed but does not fit the table, such as an unknown column, a literal
 *       that is not a value of its column's type, or {@code LIKE} on a non-string column. The message is one
 *       line that quotes the filter and names the column, its type and the literal, for example
 *       {@code Unknown column 'staus' in row filter "staus = 'Stale'"; columns: id, as_of, status}.
 * </ul>
 *
 * <p>{@link #index()} points at the offending character in both cases, for tools that highlight it.
 */
public class FilterSyntaxException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /** The row filter as given. */
  private final String filter;

  /** The 0-based index of the offending character, or -1. */
  private final int index;

  /**
   * Creates the exception.
   *
   * @param message the complete message, quoting the filter
   * @param filter the row filter as given
   * @param index the 0-based index in {@code filter} of the offending character ({@code filter.length()}
   *     when the filter ended too early), or -1 when the error is not tied to one place
   */
  public FilterSyntaxException(String message, String filter, int index) {
    super(message);
    this.filter = filter;
    this.index = index;
  }

  /**
   * Builds a syntax error: the description, then the filter with a caret under {@code index}.
   */
  static FilterSyntaxException at(String filter, int index, String description) {
    // Tabs and line breaks would throw the caret off its column, so show them as spaces.
    String shown = filter.replaceAll("[\\t\\n\\r\\f]", " ");
    String message =
        "Invalid row filter at position " + (index + 1) + ": " + description + "\n  " + shown + "\n  "
            + " ".repeat(index) + "^";
    return new FilterSyntaxException(message, filter, index);
  }

  /**
   * Returns the row filter as given.
   *
   * @return the filter text
   */
  public String filter() {
    return filter;
  }

  /**
   * Returns where the error is. The message shows this index plus one, as a 1-based position.
   *
   * @return the 0-based index of the offending character in {@link #filter()}, {@code filter().length()}
   *     when the filter ended too early, or -1 when the error is not tied to one place
   */
  public int index() {
    return index;
  }
}
