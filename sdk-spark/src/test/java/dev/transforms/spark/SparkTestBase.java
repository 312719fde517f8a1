package dev.transforms.spark;

import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import java.nio.file.Path;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A warehouse per test, the shared Spark session, and helpers to build and look at tables. */
abstract class SparkTestBase {

  @TempDir
  Path dir;

  TransformsConfig config;
  Transforms runner;
  SparkSession spark;

  /** The warehouse folder, under the test's temporary folder. */
  String warehouseFolder() {
    return "warehouse";
  }

  @BeforeEach
  void startWarehouse() {
    config = TransformsConfig.embedded(dir.resolve(warehouseFolder()));
    runner = Transforms.open(config);
    runner.catalog(TransformsConfig.DEFAULT_CATALOG); // creates the warehouse folder
    spark = SparkSessions.forBuild(SharedSpark.session(), config);
  }

  @AfterEach
  void closeWarehouse() {
    SparkSessions.closeCatalogs(spark, config.catalogs().keySet());
    runner.close();
  }

  BuildReport build(Class<?>... classes) {
    return runner.build(classes);
  }

  /** Builds even when up to date: for tests that change what a transform does between builds by hand. */
  BuildReport forced(Class<?>... classes) {
    return runner.build(Transforms.Selection.of(classes).force());
  }

  static TransformResult only(BuildReport report) {
    return report.results().get(0);
  }

  ResolvedTable resolved(String path) {
    return runner.resolve(path);
  }

  String id(String path) {
    return resolved(path).sparkIdentifier();
  }

  Table table(String path) {
    ResolvedTable resolved = resolved(path);
    return runner.catalog(resolved.catalog()).loadTable(resolved.identifier());
  }

  long mainSnapshot(String path) {
    Snapshot snapshot = table(path).currentSnapshot();
    return snapshot == null ? -1 : snapshot.snapshotId();
  }

  void sql(String statement) {
    spark.sql(statement).collect();
  }

  /** Creates a table with the given columns and rows (SQL values, one string per row). */
  void createTable(String path, String columns, String... rows) {
    sql("CREATE NAMESPACE IF NOT EXISTS " + resolved(path).sparkNamespace());
    sql("CREATE TABLE " + id(path) + " (" + columns + ") USING iceberg");
    if (rows.length > 0) {
      insert(path, rows);
    }
  }

  void insert(String path, String... rows) {
    sql("INSERT INTO " + id(path) + " VALUES (" + String.join("), (", rows) + ")");
  }

  /** The rows of a table's main branch, as {@code Row.toString()}, sorted. */
  List<String> rows(String path) {
    return spark.table(id(path)).collectAsList().stream().map(Row::toString)
        .sorted().toList();
  }
}
