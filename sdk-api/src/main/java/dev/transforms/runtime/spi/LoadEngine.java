package dev.transforms.runtime.spi;

import dev.transforms.api.BadRowsException;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;

/**
 * Reads files and writes their rows as data files of a table: the part of a load that depends on an
 * engine. The runtime does the rest: it resolves the table, stages and publishes.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader}; the single-node engine
 * ({@code dev.transforms:sdk-single-node}) provides one.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 */
public interface LoadEngine {

  /**
   * The schema Parquet files carry. All files must agree.
   *
   * @param files Parquet files
   * @return their schema, with the files' field ids or fresh ones
   * @throws dev.transforms.api.InvalidLoadException if a file cannot be read or the files disagree,
   *     naming the file and the columns
   */
  Schema fileSchema(List<SourceFile> files);

  /**
   * Guesses the columns of CSV or JSON files from their values, for {@code --infer-schema} only: every
   * value is read, and a column whose values all parse as a long is a long, and so on.
   *
   * @param files CSV or JSON files
   * @param text how CSV files are laid out
   * @return the guessed schema, every column optional
   */
  Schema inferSchema(List<SourceFile> files, TextOptions text);

  /**
   * Checks what can be checked of the files without reading their rows, before a load touches a table:
   * that each one opens as its format (a gzipped file is gzip, a Parquet file is Parquet), that its
   * beginning is UTF-8 text, that a CSV file has a header line and that it names the columns. What only
   * reading every row can tell (a bad value, a byte that is not UTF-8 further down) is found by
   * {@link #write}. The default checks nothing.
   *
   * @param columns the columns the files hold
   * @param files the files, of one format
   * @param text how CSV files are laid out
   * @throws dev.transforms.api.InvalidLoadException naming the file, and the line where there is one
   */
  default void check(Schema columns, List<SourceFile> files, TextOptions text) {}

  /**
   * Reads every row of the files and writes them as new data files of the table, without committing
   * anything.
   *
   * @param table the table; data files follow its schema, partition spec and properties
   * @param columns the columns the files hold, each with the table's type: the values are parsed as
   *     those types, a required column refuses an empty value
   * @param files the files, of one format
   * @param text how CSV files are laid out
   * @param listener hears progress
   * @return the data files written, for the caller to commit
   * @throws BadRowsException listing the rows that do not fit (file, line and field), after every file
   *     was read; the data files written are deleted then
   */
  List<DataFile> write(Table table, Schema columns, List<SourceFile> files, TextOptions text,
      LoadListener listener);
}
