package dev.transforms.singlenode.arrow;

import dev.transforms.api.TransformsException;
import java.util.List;

/**
 * Arrow data cannot be written to an Iceberg table because their schemas differ.
 *
 * <p>The message lists every difference at once, one per line, each naming the column by its dotted
 * path (for example {@code address.zip}); {@link #differences()} returns the same lines so that
 * callers can show or test them one by one.
 */
public class SchemaMismatchException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /** Every difference found, one line per column at fault. */
  private final List<String> differences;

  /**
   * Creates the exception.
   *
   * @param context what was being written, for example {@code "table db.events"}
   * @param differences every difference found, each naming its column; must not be empty
   */
  public SchemaMismatchException(String context, List<String> differences) {
    super(message(context, differences));
    this.differences = List.copyOf(differences);
  }

  /**
   * Returns every difference found, one entry per column at fault.
   *
   * @return the differences, in table column order followed by columns unknown to the table
   */
  public List<String> differences() {
    return differences;
  }

  private static String message(String context, List<String> differences) {
    StringBuilder message = new StringBuilder();
    message
        .append("Arrow data does not match the schema of ")
        .append(context)
        .append(" (")
        .append(differences.size())
        .append(differences.size() == 1 ? " difference" : " differences")
        .append("):");
    for (String difference : differences) {
      message.append("\n  - ").append(difference);
    }
    return message.toString();
  }
}
