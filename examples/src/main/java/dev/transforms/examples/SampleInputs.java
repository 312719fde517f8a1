package dev.transforms.examples;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.spark.SparkSessions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * The sample inputs of the examples, written with Spark SQL: the first run creates them, every later
 * run delivers new rows (replacing the row updates, appending to the append-only inputs), so a build
 * after it shows MERGE, incremental appends and snapshot comparison at work.
 *
 * <p>{@link Demo} seeds through it before each build. On a cluster, submit it from the pipeline's
 * application jar before {@code build}:
 * {@code spark-submit --class dev.transforms.examples.SampleInputs APP.jar [--config FILE]}.
 */
public final class SampleInputs {

  private final SparkSession spark;
  private final TableResolver resolver;

  /**
   * Sample inputs written through a session, at the tables the paths resolve to.
   *
   * @param spark a session with the configuration's catalogs
   * @param resolver the configuration's resolver
   */
  public SampleInputs(SparkSession spark, TableResolver resolver) {
    this.spark = spark;
    this.resolver = resolver;
  }

  /**
   * Creates the sample inputs, or delivers new rows to them if they exist.
   *
   * @param args {@code --config FILE} and {@code --warehouse DIR}, as for the command line
   */
  public static void main(String[] args) {
    TransformsConfig config = loadConfig(args);
    SparkSession spark = SparkSessions.forBuild(SparkSessions.builder(config).getOrCreate(), config);
    try {
      new SampleInputs(spark, new TableResolver(config)).seedOrDeliver();
    } finally {
      spark.stop();
    }
  }

  /**
   * The configuration the command line would load for these arguments. When a mounted catalog is the
   * embedded SQLite one, its warehouse folder is created: Spark's catalog client does not create it.
   */
  static TransformsConfig loadConfig(String[] args) {
    TransformsConfig config = TransformsConfig.load(option(args, "--config"), option(args, "--warehouse"),
        System.getenv(), Path.of("").toAbsolutePath());
    boolean embedded = config.mounts().stream()
        .anyMatch(m -> config.catalogs().get(m.catalog()).getOrDefault("uri", "").startsWith("jdbc:sqlite:"));
    if (embedded) {
      try {
        Files.createDirectories(config.warehouse());
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create the warehouse folder " + config.warehouse(), e);
      }
    }
    return config;
  }

  private static Optional<Path> option(String[] args, String name) {
    for (int i = 0; i < args.length - 1; i++) {
      if (args[i].equals(name)) {
        return Optional.of(Path.of(args[i + 1]));
      }
    }
    return Optional.empty();
  }

  /** Creates the inputs on the first run, delivers new rows on every later one. */
  public void seedOrDeliver() {
    if (!exists(SparkRowEdits.UPDATES)) {
      seed();
    } else {
      deliver();
    }
    if (!exists(CustomerDimensions.CUSTOMERS)) {
      create(CustomerDimensions.CUSTOMERS, "id BIGINT NOT NULL, name STRING, tier STRING, updated_at BIGINT",
          "(1, 'Ada', 'gold', 1), (2, 'Bo', 'silver', 1), (3, 'Cy', 'bronze', 1)");
      String table = id(CustomerDimensions.CUSTOMERS);
      spark.sql("ALTER TABLE " + table + " SET IDENTIFIER FIELDS id");
      spark.sql("ALTER TABLE " + table + " SET TBLPROPERTIES ('write.merge.mode' = 'merge-on-read', "
          + "'write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read')");
    } else {
      // An upsert and a delete, written as merge-on-read deletes: the dimensions stay incremental.
      String table = id(CustomerDimensions.CUSTOMERS);
      spark.sql("MERGE INTO " + table + " t USING (SELECT * FROM VALUES (2L, 'Bo', 'gold', 2L), (4L, 'Di', 'bronze', 2L) "
          + "AS s(id, name, tier, updated_at)) s ON t.id = s.id "
          + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
      spark.sql("DELETE FROM " + table + " WHERE id = 3");
    }
  }

  private String id(String path) {
    return resolver.resolve(DatasetPath.of(path)).sparkIdentifier();
  }

  private String namespace(String path) {
    return resolver.resolve(DatasetPath.of(path)).sparkNamespace();
  }

  private boolean exists(String path) {
    return spark.catalog().tableExists(id(path));
  }

  private void seed() {
    System.out.println("Seeding the sample inputs...");
    create(SparkRowEdits.UPDATES, "id BIGINT NOT NULL, as_of DATE, status STRING",
        "(1, DATE '2026-03-15', 'Active'), (2, DATE '2026-04-10', 'Stale'), (3, DATE '2026-04-20', 'Active')");
    create(PartitionByDay.SOURCE, "id BIGINT NOT NULL, created_at TIMESTAMP",
        "(1, TIMESTAMP '2026-04-01 08:00:00 UTC'), (2, TIMESTAMP '2026-04-02 09:30:00 UTC')");
    create(SnapshotComparison.SOURCE, "id BIGINT NOT NULL, name STRING", "(1, 'a'), (2, 'b')");
    create(OpenHouseWrites.DELIVERIES, "datepartition STRING, level STRING, message STRING",
        "('2022-05-10', 'INFO', 'a'), ('2022-05-10', 'ERROR', 'b'), ('2022-05-11', 'INFO', 'c')");
  }

  private void deliver() {
    System.out.println("Delivering new rows to the sample inputs...");
    spark.sql("INSERT OVERWRITE " + id(SparkRowEdits.UPDATES)
        + " VALUES (2, DATE '2026-04-12', 'Stale'), (4, DATE '2026-03-01', 'Active'), (5, DATE '2026-05-01', 'Stale')");
    spark.sql("INSERT INTO " + id(PartitionByDay.SOURCE)
        + " VALUES (3, TIMESTAMP '2026-04-02 23:59:59 UTC'), (4, TIMESTAMP '2026-04-03 00:00:00 UTC')");
    spark.sql("INSERT INTO " + id(SnapshotComparison.SOURCE) + " VALUES (3, 'c'), (4, 'd')");
    spark.sql("INSERT INTO " + id(OpenHouseWrites.DELIVERIES)
        + " VALUES ('2022-05-11', 'INFO', 'c2'), ('2022-05-11', 'WARN', 'd'), ('2022-05-12', 'INFO', 'e')");
  }

  private void create(String path, String columns, String values) {
    String table = id(path);
    spark.sql("CREATE NAMESPACE IF NOT EXISTS " + namespace(path));
    spark.sql("CREATE TABLE " + table + " (" + columns + ") USING iceberg");
    spark.sql("INSERT INTO " + table + " VALUES " + values);
  }
}
