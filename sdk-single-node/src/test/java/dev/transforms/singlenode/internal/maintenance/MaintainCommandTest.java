package dev.transforms.singlenode.internal.maintenance;

import static dev.transforms.singlenode.internal.maintenance.MaintenanceTables.dataFiles;
import static dev.transforms.singlenode.internal.maintenance.MaintenanceTables.deleteFiles;
import static dev.transforms.singlenode.internal.maintenance.MaintenanceTables.rows;
import static dev.transforms.singlenode.internal.maintenance.MaintenanceTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.TransformsCli;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.singlenode.internal.maintenance.MaintenanceTables.Deletes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code transforms maintain} and {@code transforms health} on the embedded catalog. */
class MaintainCommandTest {
  @TempDir Path dir;

  private record Run(int exitCode, String out, String err) {}

  private Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TransformsCli.execute(new TransformsCli(Map.of(), dir), new PrintWriter(out, true),
        new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void healthRecommendsCompactionAndMaintainDoesItWithTheSingleNodeEngine() {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.smallFilesWithDeletes(catalogs, "orders", Deletes.V2_POSITION, 6, 30);
      Set<String> before = rows(table);

      Run health = run("health", "/Shop/orders");
      assertThat(health.exitCode()).as(health.err()).isZero();
      assertThat(health.out()).contains("/Shop/orders (`local`.`Shop`.`orders`)", "data files: 6,",
          "6 small (100%)", "delete files: 6, removing 14.4% of 180 rows", "snapshots: 7,",
          "transforms maintain /Shop/orders --compact");

      Run show = run("show", "/Shop/orders");
      assertThat(show.out()).contains("health: 6 data files (100% small), 6 delete files (14.4% of rows), 7 snapshots");

      Run maintain = run("maintain", "/Shop/orders", "--compact");
      assertThat(maintain.exitCode()).as(maintain.err()).isZero();
      assertThat(maintain.out()).contains("/Shop/orders (`local`.`Shop`.`orders`), single-node engine:",
          "  compact: 6 data files rewritten into 1 (154 rows), 6 delete files removed");
      assertThat(rows(table)).isEqualTo(before);
      assertThat(dataFiles(table)).isEqualTo(1);
      assertThat(deleteFiles(table)).isZero();

      Run after = run("health", "/Shop/orders");
      assertThat(after.out()).contains("data files: 1,", "delete files: 0", "recommendations: none");
    }
  }

  @Test
  void withNoActionNamedEveryActionRunsAndOrphansAreOnlyListed() {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.smallFilesWithDeletes(catalogs, "orders", Deletes.V3_DELETION_VECTOR, 3, 10);
      Set<String> before = rows(table);
      int snapshots = snapshots(table);

      Run maintain = run("maintain", "/Shop/orders");
      assertThat(maintain.exitCode()).as(maintain.err()).isZero();
      assertThat(maintain.out()).contains("compact: 3 data files rewritten into 1", "rewrite manifests: ",
          "expire: nothing older than 5 days", "orphan files: none older than 3 days");
      assertThat(rows(table)).isEqualTo(before);
      assertThat(snapshots(table)).isGreaterThan(snapshots);
    }
  }

  @Test
  void badArgumentsAndRefusalsNameTheOptionAndChangeNothing() {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.smallFilesWithDeletes(catalogs, "orders", Deletes.V2_POSITION, 3, 10);
      long head = table.currentSnapshot().snapshotId();

      Run age = run("maintain", "/Shop/orders", "--older-than", "five days");
      assertThat(age.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
      assertThat(age.err()).contains("--older-than 'five days' is not an age");

      Run retain = run("maintain", "/Shop/orders", "--expire", "--retain-last", "0");
      assertThat(retain.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
      assertThat(retain.err()).contains("--retain-last must be at least 1");

      Run pair = run("maintain", "/Shop/orders", "--remove-orphans", "--equal-scheme", "s3a");
      assertThat(pair.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
      assertThat(pair.err()).contains("--equal-scheme 's3a' must be LISTED=METADATA");

      // a scheme mapped to two schemes: which one the listing is compared with would depend on the order
      Run schemeTwice = run("maintain", "/Shop/orders", "--remove-orphans", "--equal-scheme", "s3a=s3",
          "--equal-scheme", "s3a=gs");
      assertThat(schemeTwice.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
      assertThat(schemeTwice.err()).contains("--equal-scheme maps 's3a' twice, to 's3' and to 'gs'; keep one");
      Run authorityTwice = run("maintain", "/Shop/orders", "--remove-orphans", "--equal-authority",
          "b.internal=b,b.internal=c");
      assertThat(authorityTwice.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
      assertThat(authorityTwice.err()).contains("--equal-authority maps 'b.internal' twice, to 'b' and to 'c'");

      Run shortRetention = run("maintain", "/Shop/orders", "--compact", "--remove-orphans",
          "--orphans-older-than", "1h", "--delete-orphans");
      assertThat(shortRetention.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
      assertThat(shortRetention.err()).contains("error: MaintenanceRefusedException: Refusing to remove orphan files of /Shop/orders",
          "--allow-deleting-files-of-running-writes");

      Run missing = run("maintain", "/Shop/nothing");
      assertThat(missing.exitCode()).isNotZero();
      assertThat(missing.err()).contains("No table at /Shop/nothing");

      // an option of a step that is not asked for would do nothing: refused, naming the step it belongs to
      Run idle = run("maintain", "/Shop/orders", "--compact", "--keep-incremental-state");
      assertThat(idle.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
      assertThat(idle.err()).contains("--keep-incremental-state (a setting of --expire) would do nothing");
      Run idleOrphans = run("maintain", "/Shop/orders", "--compact", "--older-than", "7d", "--delete-orphans");
      assertThat(idleOrphans.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
      assertThat(idleOrphans.err()).contains("--delete-orphans (a setting of --remove-orphans)",
          "--older-than (a setting of --expire)");
      Run twice = run("maintain", "/Shop/orders", "/Shop/orders");
      assertThat(twice.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
      assertThat(twice.err()).contains("Table /Shop/orders is named twice");

      Run engine = run("maintain", "/Shop/orders", "--engine", "duckdb");
      assertThat(engine.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
      assertThat(engine.err()).contains("No maintenance engine 'duckdb'");

      table.refresh();
      assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
    }
  }

  @Test
  void allAppliesEachTablesPolicyTheDeepestPrefixWinning() throws Exception {
    java.nio.file.Files.writeString(dir.resolve("transforms.properties"), """
        maintain./Shop.actions=compact
        maintain./Shop/audit.actions=expire
        maintain./Shop/audit.older-than=0s
        """);
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table orders = MaintenanceTables.smallFilesWithDeletes(catalogs, "orders", Deletes.V2_POSITION, 3, 10);
      Table audit = MaintenanceTables.create(catalogs, "audit", Deletes.V2_POSITION);
      MaintenanceTables.append(audit, 0, 5);
      MaintenanceTables.append(audit, 5, 5);
      Table other = MaintenanceTables.create(catalogs, "Other", "items", Deletes.V2_POSITION);
      MaintenanceTables.append(other, 0, 5);
      MaintenanceTables.append(other, 5, 5);
      Set<String> ordersBefore = rows(orders);
      long otherHead = other.currentSnapshot().snapshotId();

      Run all = run("maintain", "--all");
      assertThat(all.exitCode()).as(all.err()).isZero();
      assertThat(all.out()).contains("/Shop/orders (`local`.`Shop`.`orders`), single-node engine:",
          "  compact: 3 data files rewritten into 1", "/Shop/audit (`local`.`Shop`.`audit`), single-node engine:",
          "  expire: 1 snapshot expired").doesNotContain("/Other/items");
      assertThat(rows(orders)).isEqualTo(ordersBefore);
      assertThat(dataFiles(orders)).isEqualTo(1);
      assertThat(snapshots(audit)).isEqualTo(1);
      assertThat(dataFiles(audit)).isEqualTo(2);
      other.refresh();
      assertThat(other.currentSnapshot().snapshotId()).isEqualTo(otherHead);
      assertThat(snapshots(other)).isEqualTo(2);
    }
  }

  @Test
  void aWrongPolicyKeyOrValueIsNamed() throws Exception {
    java.nio.file.Files.writeString(dir.resolve("transforms.properties"), "maintain./Shop.olderthan=5d\n");
    Run key = run("maintain", "--all");
    assertThat(key.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(key.err()).contains("'maintain./Shop.olderthan' must be maintain.PREFIX.OPTION");

    java.nio.file.Files.writeString(dir.resolve("transforms.properties"), "maintain./Shop.actions=compact,vacuum\n");
    Run value = run("maintain", "--all");
    assertThat(value.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(value.err()).contains("maintain./Shop.*: actions: unknown action 'vacuum'");

    java.nio.file.Files.writeString(dir.resolve("transforms.properties"),
        "maintain./Shop.equal-scheme=s3a=s3,s3a=gs\n");
    Run policyTwice = run("maintain", "--all");
    assertThat(policyTwice.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(policyTwice.err()).contains("equal-scheme maps 's3a' twice, to 's3' and to 'gs'; keep one");

    Run both = run("maintain", "--all", "/Shop/orders");
    assertThat(both.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(both.err()).contains("--all maintains the tables that policies cover: leave out PATH");
  }
}
