package dev.transforms.spark;

import dev.transforms.api.Handle;
import dev.transforms.api.Output;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A plain file dataset a Spark transform writes, declared with {@link Output} (Parquet, CSV or JSON).
 *
 * <p>Files are written to a staging folder next to the dataset and moved into place when the method
 * returns; if it throws, the staging folder is deleted and the previous files stay.
 */
@Handle(engine = "spark", role = Handle.Role.OUTPUT, paths = {Output.class}, artifact = "dev.transforms:sdk-spark")
public interface TransformOutput {

  /**
   * The dataset's path, as declared.
   *
   * @return the dataset path
   */
  String path();

  /**
   * The name of a temporary view over the dataset's files for Spark SQL (the path itself, quoted),
   * registered once the dataset has files: its previous files, or those this transform wrote.
   *
   * @return the view name
   */
  String identifier();

  /**
   * Replaces the dataset's files with the DataFrame's rows, in the declared format (CSV with a header
   * line).
   *
   * @param dataframe the rows to write
   */
  void writeDataFrame(Dataset<Row> dataframe);

  /**
   * The dataset's rows: what this transform wrote, or the previous files if it wrote nothing yet.
   *
   * @return the rows
   * @throws dev.transforms.api.DatasetNotFoundException if the dataset has no files yet
   */
  Dataset<Row> dataframe();
}
