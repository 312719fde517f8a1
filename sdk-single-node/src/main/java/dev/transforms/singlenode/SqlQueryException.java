package dev.transforms.singlenode;

import dev.transforms.api.TransformsException;

/**
 * A query of a {@link SqlSession} failed in DuckDB: a syntax error, an unknown name, a failing cast.
 * The message holds DuckDB's own message and the SQL that was run.
 */
public class SqlQueryException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message DuckDB's message and the SQL
   * @param cause DuckDB's error
   */
  public SqlQueryException(String message, Throwable cause) {
    super(message, cause);
  }
}
