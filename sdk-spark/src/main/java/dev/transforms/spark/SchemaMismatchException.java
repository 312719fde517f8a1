package dev.transforms.spark;

import dev.transforms.api.TransformsException;
import java.util.List;

/**
 * A DataFrame does not fit the output table it is written to. The message names the transform, the
 * output and every column that differs; nothing was written.
 */
public class SchemaMismatchException extends TransformsException {
  private static final long serialVersionUID = 1L;

  private final List<String> differences;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, listing the columns
   * @param differences one line per differing column
   */
  public SchemaMismatchException(String message, List<String> differences) {
    super(message);
    this.differences = List.copyOf(differences);
  }

  /**
   * The columns that differ, one description each, such as {@code amount: table bigint, data string}.
   *
   * @return the differences
   */
  public List<String> differences() {
    return differences;
  }
}
