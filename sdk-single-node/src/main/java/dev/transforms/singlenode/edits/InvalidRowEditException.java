package dev.transforms.singlenode.edits;

import dev.transforms.api.TransformsException;

/**
 * A row edit was refused because its input cannot be applied to the table: a join column that does
 * not exist, an empty join column list, a null or duplicate join key in the upsert source, a row
 * whose fields do not fit the table's schema, or a filter that names an unknown column.
 *
 * <p>The message names the column, key values or fields at fault and says what to change. The check
 * runs before anything is written, so the table's current snapshot is unchanged when this is
 * thrown.
 */
public class InvalidRowEditException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what is wrong with the input and how to fix it
   */
  public InvalidRowEditException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what is wrong with the input and how to fix it
   * @param cause the underlying failure, such as Iceberg's binding error for a filter
   */
  public InvalidRowEditException(String message, Throwable cause) {
    super(message, cause);
  }
}
