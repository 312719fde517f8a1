package dev.transforms.singlenode.edits;

import dev.transforms.api.TransformsException;

/**
 * A row edit kept colliding with other writers and gave up after its bounded number of attempts.
 *
 * <p>Each attempt re-reads the table from its newest snapshot, plans and writes again, and commits
 * with serializable validation; an attempt fails when another writer committed a change to rows or
 * files it touched (Iceberg's {@link org.apache.iceberg.exceptions.ValidationException}) or when
 * the catalog refused the commit ({@link org.apache.iceberg.exceptions.CommitFailedException}). The
 * cause is the last such failure. Nothing of this edit was committed and the files it wrote were
 * removed; run it again later, or allow more attempts with {@link RowEdits#withMaxAttempts(int)}.
 */
public class RowEditConflictException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message which edit on which table gave up, after how many attempts
   * @param cause the last conflict or commit failure
   */
  public RowEditConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
