package dev.transforms.api;


/**
 * Maintenance refused to act on a table because one of its safety rules would be broken: a build is
 * writing the table, a retention is too short, or file locations and table metadata disagree. Nothing
 * was changed or deleted when it is thrown.
 */
public final class MaintenanceRefusedException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message which rule, on which table, and how to proceed
   */
  public MaintenanceRefusedException(String message) {
    super(message);
  }
}
