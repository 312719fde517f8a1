package dev.transforms.clustertest.scale;

import dev.transforms.runtime.catalog.TableResolver;
import dev.transforms.runtime.catalog.TransformsConfig;
import dev.transforms.runtime.path.DatasetPath;
import dev.transforms.spark.SparkSessions;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * Generates the benchmark's inputs with Spark, on the executors: {@code seed ROWS} creates the account
 * updates and the events with ROWS rows each; {@code deliver ROWS} replaces the account updates with
 * ROWS rows (half of them existing accounts, half new) and appends ROWS new events.
 *
 * <p>{@code spark-submit --class dev.transforms.clustertest.scale.ScaleInputs APP.jar --config FILE seed 10000000}
 */
public final class ScaleInputs {

  private ScaleInputs() {}

  /**
   * Writes the inputs.
   *
   * @param args {@code --config FILE} (optional), then {@code seed ROWS} or {@code deliver ROWS}
   */
  public static void main(String[] args) {
    int at = 0;
    Optional<Path> file = Optional.empty();
    if (args[0].equals("--config")) {
      file = Optional.of(Path.of(args[1]));
      at = 2;
    }
    String mode = args[at];
    long rows = Long.parseLong(args[at + 1]);
    TransformsConfig config = TransformsConfig.load(file, Optional.empty(), System.getenv(), Path.of("").toAbsolutePath());
    TableResolver resolver = new TableResolver(config);
    String updates = resolver.resolve(DatasetPath.of(AccountMerge.UPDATES)).sparkIdentifier();
    String events = resolver.resolve(DatasetPath.of(EventsByDay.EVENTS)).sparkIdentifier();
    SparkSession spark = SparkSessions.forBuild(SparkSessions.builder(config).getOrCreate(), config);
    try {
      if (mode.equals("seed")) {
        spark.sql("CREATE NAMESPACE IF NOT EXISTS " + resolver.resolve(DatasetPath.of(AccountMerge.UPDATES)).sparkNamespace());
        spark.sql("CREATE TABLE " + updates + " USING iceberg AS " + accounts("id", rows));
        spark.sql("CREATE TABLE " + events + " USING iceberg AS " + events(0, rows));
      } else {
        // Half of the updates change existing accounts (ids 0, 4, 8...), half are new accounts.
        spark.sql("INSERT OVERWRITE " + updates + " "
            + accounts("CASE WHEN id % 2 = 0 THEN id * 2 ELSE id + 1000000000000 END", rows));
        long existing = spark.table(events).count();
        spark.sql("INSERT INTO " + events + " " + events(existing, rows));
      }
    } finally {
      spark.stop();
    }
  }

  /** {@code rows} accounts, numbered from 0, whose id is {@code idExpression} of the number: id, name, balance, tier, as_of. */
  private static String accounts(String idExpression, long rows) {
    return "SELECT " + idExpression + " AS id, concat('account-', id) AS name, CAST(id % 100000 AS DOUBLE) / 100 AS balance,"
        + " CAST(id % 5 AS INT) AS tier, date_add(DATE '2026-01-01', CAST(id % 365 AS INT)) AS as_of"
        + " FROM range(0, " + rows + ", 1, 16)";
  }

  /** Events with ids from {@code start}, spread over 60 days: id, account_id, kind, amount, ts. */
  private static String events(long start, long rows) {
    return "SELECT id, id % 1000003 AS account_id, CAST(id % 7 AS INT) AS kind, CAST(id % 10007 AS DOUBLE) AS amount,"
        + " timestamp_seconds(1767225600 + id % 5184000) AS ts"
        + " FROM range(" + start + ", " + (start + rows) + ", 1, 16)";
  }
}
