package dev.transforms.spark;

import dev.transforms.api.TransformsException;
import org.apache.spark.sql.DataFrameWriterV2;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;

/** Writes whose Java signature differs between Spark lines; Spark 4.1. */
final class TableWrites {

  private TableWrites() {}

  /**
   * Creates the writer's table with its rows. On this line {@code create()} declares
   * {@code TableAlreadyExistsException}: a table that appeared between the caller's check and the write.
   *
   * @param writer the rows and the table
   */
  static void create(DataFrameWriterV2<Row> writer) {
    try {
      writer.create();
    } catch (TableAlreadyExistsException e) {
      throw new TransformsException("Cannot create the table: another writer created it meanwhile: " + e.getMessage(), e);
    }
  }
}
