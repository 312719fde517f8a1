package dev.transforms.spark;

import dev.transforms.api.Handle;
import dev.transforms.api.Input;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A dataset a Spark transform reads, declared with {@link Input}: plain files (Parquet, or CSV/JSON
 * read with the declared schema), or an Iceberg table when the path names one.
 */
@Handle(engine = "spark", role = Handle.Role.INPUT, paths = {Input.class}, artifact = "dev.transforms:sdk-spark")
public interface TransformInput {

  /**
   * The dataset's path, as declared.
   *
   * @return the dataset path
   */
  String path();

  /**
   * The name to use in Spark SQL: the table's quoted identifier when the dataset is an Iceberg table,
   * otherwise the name of a temporary view over the files, registered for the transform's run
   * (the path itself, quoted, such as {@code `/Examples/raw/events`}).
   *
   * @return the identifier
   */
  String identifier();

  /**
   * Every row of the dataset as of this build.
   *
   * @return the rows
   */
  Dataset<Row> dataframe();
}
