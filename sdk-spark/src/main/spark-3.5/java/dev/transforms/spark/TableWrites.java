package dev.transforms.spark;

import org.apache.spark.sql.DataFrameWriterV2;
import org.apache.spark.sql.Row;

/** Writes whose Java signature differs between Spark lines; Spark 3.5. */
final class TableWrites {

  private TableWrites() {}

  /**
   * Creates the writer's table with its rows. On this line {@code create()} declares no exception; a
   * table that appeared meanwhile fails with Spark's {@code TableAlreadyExistsException}, unchecked.
   *
   * @param writer the rows and the table
   */
  static void create(DataFrameWriterV2<Row> writer) {
    writer.create();
  }
}
