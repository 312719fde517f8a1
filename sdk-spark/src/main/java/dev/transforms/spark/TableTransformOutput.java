package dev.transforms.spark;

import dev.transforms.api.Handle;
import dev.transforms.api.SchemaMismatchException;
import dev.transforms.api.TableOutput;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * An Iceberg table a Spark transform writes, declared with {@link TableOutput}.
 *
 * <p>Write with {@link #writeDataFrame}, or with any Spark SQL or DataFrame write on
 * {@link #identifier()}: {@code MERGE INTO}, {@code UPDATE}, {@code DELETE}, {@code INSERT},
 * {@code writeTo(identifier()).append()}. While the transform runs, every such write to a table that
 * existed before lands on a staging branch; the runtime publishes all of them at once when the method
 * returns, and none of them if it throws. See {@code docs/spark.md}.
 */
@Handle(engine = "spark", role = Handle.Role.OUTPUT, paths = {TableOutput.class}, artifact = "dev.transforms:sdk-spark")
public interface TableTransformOutput {

  /**
   * The table's fully qualified Spark SQL identifier, every part quoted with backticks, usable
   * verbatim in any statement: {@code MERGE INTO <identifier> AS t USING ...},
   * {@code UPDATE <identifier> SET ...}, {@code SELECT * FROM <identifier>.snapshots}.
   *
   * @return the identifier, such as {@code `local`.`Examples`.`iceberg`.`edited-spark`}
   */
  String identifier();

  /**
   * The name of the Spark catalog that holds the table, for procedure calls:
   * {@code CALL <catalog>.system.rewrite_data_files(table => ...)}.
   *
   * @return the catalog name, unquoted
   */
  String catalog();

  /**
   * The identifier as a SQL string literal, quotes included and escaped, for the {@code table}
   * argument of Iceberg procedures: {@code CALL local.system.rewrite_data_files(table => <literal>)}.
   *
   * @return the quoted literal
   */
  String identifierLiteral();

  /**
   * Whether the table exists now: {@code false} on the first build until something creates it.
   *
   * @return whether the table exists
   */
  boolean exists();

  /**
   * Writes a DataFrame the way the build asks for: creates the table from the DataFrame's schema when
   * it does not exist, replaces its rows on a full build, and appends on an incremental build.
   * Columns are matched by name. When they do not fit the table, a full build gives the table the
   * DataFrame's columns, and an incremental build changes them only as the output's
   * {@link dev.transforms.api.SchemaChangePolicy} allows; the change is published with the rows.
   *
   * @param dataframe the rows to write
   * @throws SchemaMismatchException if the columns do not fit and the build may not change the table
   *     that way (an incremental build beyond its policy, {@code fail} by default; a full build that
   *     drops a partition source column; a column of no type); the message lists every column that
   *     differs, and nothing is written
   */
  void writeDataFrame(Dataset<Row> dataframe);

  /**
   * The table's current rows, including what this transform has written so far.
   *
   * @return the rows
   * @throws dev.transforms.api.DatasetNotFoundException if the table does not exist yet
   */
  Dataset<Row> dataframe();
}
