package dev.transforms.benchmarks;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.spi.CommittedFiles;
import dev.transforms.singlenode.edits.RowEdits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;

/**
 * What the check that a commit's files are there ({@link CommittedFiles}) costs beside the edit it
 * guards: a copy-on-write and a merge-on-read upsert of 10,000 rows (5,000 updates spread over the table,
 * 5,000 inserts) into a 1,000,000-row, 7-column table in one local file, timed whole, and the two checks
 * of that upsert's files timed alone, right after it: the row edit's own check of the files it adds, and
 * the publication's check of what the staged snapshot added (nothing to read: the edit marked its
 * snapshot checked), and what that check costs for a snapshot another writer made (Spark's, say: its
 * manifests are read first). Each round starts from the same base snapshot.
 *
 * <pre>{@code java $OPENS -Xmx6g -cp "$CP" dev.transforms.benchmarks.CommitCheckBenchmark [runs]}</pre>
 */
public final class CommitCheckBenchmark {

  private CommitCheckBenchmark() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 9;
    int rows = 1_000_000;
    Path dir = Files.createTempDirectory("transforms-commit-check-bench");
    Harness.deleteOnExit(dir);
    PyIcebergBenchmark.Shape shape = PyIcebergBenchmark.sevenColumns();
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")));
        BufferAllocator allocator = new RootAllocator()) {
      Catalog catalog = catalogs.catalog(TransformsConfig.DEFAULT_CATALOG);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));
      long[] upsertIds = new long[10_000];
      for (int i = 0; i < 5_000; i++) {
        upsertIds[i] = (long) i * (rows / 5_000);
        upsertIds[5_000 + i] = rows + i;
      }
      System.out.printf(Locale.ROOT, "%,d rows, 7 columns, one local file; %d runs after 2 warm-ups; load %s%n",
          rows, runs, PyIcebergBenchmark.loadAverage());
      Harness.header();
      try (VectorSchemaRoot base = PyIcebergBenchmark.rows(allocator, shape, PyIcebergBenchmark.range(0, rows), 0);
          VectorSchemaRoot upsert = PyIcebergBenchmark.rows(allocator, shape, upsertIds, 1)) {
        for (String mode : List.of("copy-on-write", "merge-on-read")) {
          Table table = PyIcebergBenchmark.create(catalog, mode.replace('-', '_'), shape.schema(), mode);
          List<DataFile> files = PyIcebergBenchmark.writeOneFile(table, base);
          Harness.appendFiles(table, files);
          long baseSnapshot = table.currentSnapshot().snapshotId();
          double[] edit = new double[runs];
          double[] ownCheck = new double[runs];
          double[] publishCheck = new double[runs];
          double[] foreignCheck = new double[runs];
          for (int r = -2; r < runs; r++) {
            Harness.rollBack(table, baseSnapshot);
            double upsertMs = Harness.time(() -> RowEdits.on(table).upsert(upsert, List.of("id")));
            table.refresh();
            Snapshot head = table.currentSnapshot();
            List<ContentFile<?>> added = new ArrayList<>();
            org.apache.iceberg.SnapshotChanges changes =
                org.apache.iceberg.SnapshotChanges.builderFor(table).snapshot(head).build();
            changes.addedDataFiles().forEach(added::add);
            changes.addedDeleteFiles().forEach(added::add);
            double own = Harness.time(() -> CommittedFiles.requirePresent(table, added));
            Table fresh = catalog.loadTable(org.apache.iceberg.catalog.TableIdentifier.of("bench",
                mode.replace('-', '_'))); // no snapshot's manifests cached, as at publication
            double publish = Harness.time(() -> CommittedFiles.requirePresent(fresh,
                CommittedFiles.addedBetween(fresh, head.snapshotId(), baseSnapshot)));
            Table other = catalog.loadTable(org.apache.iceberg.catalog.TableIdentifier.of("bench",
                mode.replace('-', '_')));
            double foreign = Harness.time(() -> {
              org.apache.iceberg.SnapshotChanges read =
                  org.apache.iceberg.SnapshotChanges.builderFor(other).snapshot(other.snapshot(head.snapshotId())).build();
              List<ContentFile<?>> theirs = new ArrayList<>();
              read.addedDataFiles().forEach(theirs::add);
              read.addedDeleteFiles().forEach(theirs::add);
              CommittedFiles.requirePresent(other, theirs);
            });
            if (r >= 0) {
              foreignCheck[r] = foreign;
              edit[r] = upsertMs;
              ownCheck[r] = own;
              publishCheck[r] = publish;
            }
          }
          Arrays.sort(edit);
          Arrays.sort(ownCheck);
          Arrays.sort(publishCheck);
          Arrays.sort(foreignCheck);
          Harness.row(mode + " upsert 10k (check included)", edit);
          Harness.row("  the edit's check of its files", ownCheck);
          Harness.row("  the publication's check (snapshot checked before)", publishCheck);
          Harness.row("  the same, had another writer made the snapshot", foreignCheck);
          System.out.printf(Locale.ROOT, "  checks / upsert (medians): edit %.3f%%, publication %.3f%%, publication of"
                  + " another writer's snapshot %.3f%%%n", 100 * Harness.median(ownCheck) / Harness.median(edit),
              100 * Harness.median(publishCheck) / Harness.median(edit),
              100 * Harness.median(foreignCheck) / Harness.median(edit));
        }
      }
    }
  }
}
