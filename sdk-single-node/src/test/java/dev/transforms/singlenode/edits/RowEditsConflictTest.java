package dev.transforms.singlenode.edits;

import static dev.transforms.singlenode.edits.RowEditsTest.SCHEMA;
import static dev.transforms.singlenode.edits.RowEditsTest.contents;
import static dev.transforms.singlenode.edits.RowEditsTest.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Concurrent writers: conflicts are detected, the edit is re-planned, or it gives up cleanly. */
class RowEditsConflictTest {
  @TempDir Path dir;

  private Table table(int formatVersion, boolean mergeOnRead) {
    Table table =
        RowEditsTables.create(
            dir, "t", SCHEMA, PartitionSpec.unpartitioned(), formatVersion, mergeOnRead, Map.of());
    RowEdits.on(table)
        .append(List.of(row(1, "a", 1), row(2, "b", 2), row(3, "c", 3), row(4, "d", 4)));
    return table;
  }

  @ParameterizedTest(name = "v{0} merge-on-read={1}")
  @CsvSource({"2, false", "2, true", "3, false", "3, true"})
  void aConcurrentDeleteOfTheSameRowsIsRetriedFromTheNewHead(
      int formatVersion, boolean mergeOnRead) {
    Table table = table(formatVersion, mergeOnRead);
    AtomicInteger commits = new AtomicInteger();
    RowEdits edits =
        RowEdits.on(table)
            .beforeEachCommit(
                () -> {
                  if (commits.getAndIncrement() == 0) {
                    RowEdits.on(table).delete(Expressions.equal("id", 2L));
                  }
                });

    long deleted = edits.delete(Expressions.lessThan("id", 4L));

    assertThat(commits.get()).isEqualTo(2);
    assertThat(deleted).isEqualTo(2);
    assertThat(contents(table)).containsOnlyKeys(4L);
    assertNoStrayFiles(table);
  }

  @ParameterizedTest(name = "v{0} merge-on-read={1}")
  @CsvSource({"2, false", "3, true"})
  void aConcurrentInsertOfTheSameKeyIsSeenByTheRetriedUpsert(
      int formatVersion, boolean mergeOnRead) {
    Table table = table(formatVersion, mergeOnRead);
    AtomicInteger commits = new AtomicInteger();
    RowEdits edits =
        RowEdits.on(table)
            .beforeEachCommit(
                () -> {
                  if (commits.getAndIncrement() == 0) {
                    RowEdits.on(table).append(List.of(row(5, "concurrent", 5)));
                  }
                });

    UpsertResult result = edits.upsert(List.of(row(5, "mine", 5)), List.of("id"));

    assertThat(commits.get()).isEqualTo(2);
    assertThat(result.rowsInserted()).isZero();
    assertThat(result.rowsUpdated()).isEqualTo(1);
    assertThat(RowEditsTables.read(table)).hasSize(5);
    assertThat(contents(table)).containsEntry(5L, "mine/5");
    assertNoStrayFiles(table);
  }

  @ParameterizedTest(name = "v{0} merge-on-read={1}")
  @CsvSource({"2, false", "3, true"})
  void persistentConflictsGiveUpAfterTheAttemptBound(int formatVersion, boolean mergeOnRead) {
    Table table = table(formatVersion, mergeOnRead);
    AtomicInteger commits = new AtomicInteger();
    RowEdits edits =
        RowEdits.on(table)
            .withMaxAttempts(3)
            .beforeEachCommit(
                () ->
                    RowEdits.on(table)
                        .upsert(
                            List.of(row(1, "other-" + commits.incrementAndGet(), 1)),
                            List.of("id")));

    assertThatThrownBy(() -> edits.upsert(List.of(row(1, "mine", 1)), List.of("id")))
        .isInstanceOf(RowEditConflictException.class)
        .hasMessageStartingWith(
            "upsert on table " + table.name() + " gave up after 3 attempts: each commit conflicted")
        .hasCauseInstanceOf(ValidationException.class);

    assertThat(commits.get()).isEqualTo(3);
    assertThat(contents(table)).containsEntry(1L, "other-3/1");
    assertNoStrayFiles(table);
  }

  @ParameterizedTest(name = "v{0} merge-on-read={1}")
  @CsvSource({"2, false", "3, true"})
  void concurrentWritersAllLandTheirEdits(int formatVersion, boolean mergeOnRead) throws Exception {
    JdbcCatalog catalog = RowEditsTables.jdbcCatalog(dir);
    TableIdentifier name = TableIdentifier.of("db", "concurrent");
    String mode = mergeOnRead ? "merge-on-read" : "copy-on-write";
    Table table =
        catalog.createTable(
            name,
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(
                TableProperties.FORMAT_VERSION, String.valueOf(formatVersion),
                TableProperties.DELETE_MODE, mode,
                TableProperties.MERGE_MODE, mode));
    RowEdits.on(table)
        .append(List.of(row(1, "a", 1), row(2, "b", 2), row(3, "c", 3), row(4, "d", 4)));
    // Iceberg's own commit retries back off from 100 ms by default; keep the test quick
    table
        .updateProperties()
        .set(TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "5")
        .set(TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "50")
        .set(TableProperties.COMMIT_NUM_RETRIES, "20")
        .commit();
    int writers = 3;
    int editsEach = 3;
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(writers);
    try {
      List<java.util.concurrent.Future<?>> futures = new java.util.ArrayList<>();
      for (int w = 0; w < writers; w += 1) {
        long base = 100L * (w + 1);
        futures.add(
            pool.submit(
                () -> {
                  RowEdits edits = RowEdits.on(catalog.loadTable(name)).withMaxAttempts(20);
                  for (int i = 0; i < editsEach; i += 1) {
                    edits.upsert(
                        List.of(row(base + i, "w", i), row(base + 50, "last", i)), List.of("id"));
                  }
                  edits.delete(Expressions.equal("id", base));
                  return null;
                }));
      }
      for (java.util.concurrent.Future<?> future : futures) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }

    Map<Long, String> expected = new java.util.TreeMap<>();
    expected.put(1L, "a/1");
    expected.put(2L, "b/2");
    expected.put(3L, "c/3");
    expected.put(4L, "d/4");
    for (int w = 0; w < writers; w += 1) {
      long base = 100L * (w + 1);
      for (int i = 1; i < editsEach; i += 1) {
        expected.put(base + i, "w/" + i);
      }
      expected.put(base + 50, "last/" + (editsEach - 1));
    }
    assertThat(contents(table)).isEqualTo(expected);
    assertNoStrayFiles(table);
  }

  /** Every data or delete file under the table folder belongs to some snapshot. */
  private static void assertNoStrayFiles(Table table) {
    table.refresh();
    Set<String> referenced = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      snapshot.addedDataFiles(table.io()).forEach(file -> referenced.add(file.location()));
      snapshot.addedDeleteFiles(table.io()).forEach(file -> referenced.add(file.location()));
    }
    Path data = Path.of(java.net.URI.create(table.location())).resolve("data");
    Set<String> onDisk;
    try (Stream<Path> files = Files.walk(data)) {
      onDisk =
          files
              .filter(Files::isRegularFile)
              .filter(path -> !path.getFileName().toString().endsWith(".crc"))
              .map(path -> path.toUri().getPath())
              .collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Set<String> referencedPaths =
        referenced.stream()
            .map(location -> java.net.URI.create(location).getPath())
            .collect(Collectors.toSet());
    assertThat(onDisk).isSubsetOf(referencedPaths);
  }
}
