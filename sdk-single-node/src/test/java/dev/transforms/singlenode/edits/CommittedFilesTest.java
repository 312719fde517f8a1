package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.TransformsException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit never names a file that is not there: when a file a row edit or a compaction wrote is gone
 * or has changed by the time it commits, the commit fails naming the file, and the table keeps its
 * snapshot and rows.
 */
class CommittedFilesTest {

  @TempDir Path dir;

  @Test
  void aCopyOnWriteUpsertWhoseNewFileIsGoneFailsNamingItAndChangesNothing() {
    Table table = seeded("cow-upsert", false);
    refusedWith(table, "is missing", newFile -> delete(newFile),
        edits -> edits.upsert(List.of(RowEditsPageCopyRewriteTest.row(5, "changed")), List.of("id")));
  }

  @Test
  void aFileThatChangedSizeBeforeTheCommitFailsIt() {
    Table table = seeded("cow-delete", false);
    refusedWith(table, "bytes, and the commit records", newFile -> grow(newFile),
        edits -> edits.delete("id >= 10 and id < 20"));
  }

  @Test
  void aMergeOnReadDeleteWhoseDeleteFileIsGoneFailsNamingIt() {
    Table table = seeded("mor-delete", true);
    refusedWith(table, "delete file", newFile -> delete(newFile), edits -> edits.delete("id >= 10 and id < 20"));
  }

  @Test
  void aCompactionWhoseNewFileIsGoneFailsNamingIt() {
    Table table = seeded("compaction", false);
    RowEdits.on(table).append(List.of(RowEditsPageCopyRewriteTest.row(1_000, "more")));
    long snapshot = table.currentSnapshot().snapshotId();
    Set<Path> before = dataFiles(table);
    List<Path> removed = new ArrayList<>();
    assertThatThrownBy(() -> Compaction.plan(table).run(() -> removed.addAll(deleteNew(table, before))))
        .isInstanceOf(TransformsException.class)
        .hasMessageContaining("Cannot commit to table " + table.name())
        .hasMessageContaining(removed.isEmpty() ? "?" : removed.get(0).getFileName().toString())
        .hasMessageContaining("Nothing was committed");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(RowEditsTables.read(table)).hasSize(201);
  }

  /** Runs an edit whose new file is changed before the commit; the commit must fail and change nothing. */
  private void refusedWith(Table table, String problem, Consumer<Path> change, Consumer<RowEdits> edit) {
    long snapshot = table.currentSnapshot().snapshotId();
    List<Record> rows = RowEditsTables.read(table);
    Set<Path> before = dataFiles(table);
    List<Path> changed = new ArrayList<>();
    RowEdits edits = RowEdits.on(table).withMaxAttempts(1).beforeEachCommit(() -> {
      List<Path> fresh = newFiles(table, before);
      changed.add(fresh.get(0));
      change.accept(fresh.get(0));
    });

    assertThatThrownBy(() -> edit.accept(edits))
        .isInstanceOf(TransformsException.class)
        .hasMessageContaining("Cannot commit to table " + table.name())
        .hasMessageContaining(problem)
        .satisfies(e -> assertThat(e.getMessage()).contains(changed.get(0).getFileName().toString()));
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(RowEditsTables.read(table)).hasSameSizeAs(rows);
    // the attempt's files are removed with it
    assertThat(newFiles(table, before)).isEmpty();
  }

  private Table seeded(String name, boolean mergeOnRead) {
    Table table = RowEditsTables.create(dir, name, RowEditsPageCopyRewriteTest.SCHEMA, PartitionSpec.unpartitioned(),
        2, mergeOnRead, Map.of());
    List<Record> rows = new ArrayList<>();
    for (long id = 0; id < 200; id++) {
      rows.add(RowEditsPageCopyRewriteTest.row(id, "name " + id));
    }
    RowEdits.on(table).append(rows);
    return table;
  }

  private static Set<Path> dataFiles(Table table) {
    Path data = Path.of(java.net.URI.create(table.location())).resolve("data");
    try (Stream<Path> files = Files.walk(data)) {
      return files.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("."))
          .collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> newFiles(Table table, Set<Path> before) {
    return dataFiles(table).stream().filter(p -> !before.contains(p)).sorted().toList();
  }

  private static List<Path> deleteNew(Table table, Set<Path> before) {
    List<Path> fresh = newFiles(table, before);
    delete(fresh.get(0));
    return fresh.subList(0, 1);
  }

  private static void delete(Path file) {
    try {
      Files.delete(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void grow(Path file) {
    try {
      Files.write(file, new byte[] {0}, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
