package dev.transforms.runtime.spi;

import dev.transforms.runtime.AdvisorySettings;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

/**
 * The {@code small-files} rule, for either engine: the data files a run added to each output table,
 * read from the summaries of the snapshots on its staging branch (no file is listed), against the
 * table's {@code write.target-file-size-bytes}. A write is judged once it added
 * {@code advisories.small-files.min-files} files; it earns the advisory when their average size is below
 * {@code advisories.small-files.fraction} of the target.
 */
public final class FileSizes {

  private FileSizes() {}

  /**
   * Inspects the outputs of a run once; later calls for the same run do nothing.
   *
   * @param run the run, after its method returned
   */
  public static void inspect(TransformRun run) {
    RunAdvisories advisories = run.advisories();
    if (!advisories.enabled() || !advisories.firstTime("small-files")) {
      return;
    }
    AdvisorySettings settings = advisories.settings();
    for (BoundOutput output : run.outputs()) {
      if (output.fileLocation().isPresent()) {
        continue;
      }
      Optional<Table> staged = run.staging().table(output);
      if (staged.isEmpty()) {
        continue;
      }
      Table table = staged.get();
      SnapshotRef branch = table.refs().get(run.branch(output));
      if (branch == null) {
        table.refresh();
        branch = table.refs().get(run.branch(output));
      }
      if (branch == null) {
        continue;
      }
      Long base = output.existing().map(Table::currentSnapshot).map(Snapshot::snapshotId).orElse(null);
      long files = 0;
      long bytes = 0;
      for (Snapshot s = table.snapshot(branch.snapshotId()); s != null && !Long.valueOf(s.snapshotId()).equals(base);
          s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
        Map<String, String> summary = s.summary();
        files += PropertyUtil.propertyAsLong(summary, "added-data-files", 0);
        bytes += PropertyUtil.propertyAsLong(summary, "added-files-size", 0);
      }
      long target = PropertyUtil.propertyAsLong(table.properties(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
          TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
      if (files >= settings.smallFilesMin() && files > 0 && bytes / files < target * settings.smallFilesFraction()) {
        advisories.add(AdvisoryRule.SMALL_FILES, "the run added " + files + " data files averaging "
            + size(bytes / files) + ", against a target of " + size(target), Optional.of(output.parameter().requirePath()));
      }
    }
  }

  private static String size(long bytes) {
    return bytes >= 1 << 20 ? String.format("%.1f MB", bytes / 1048576.0)
        : bytes >= 1 << 10 ? String.format("%.1f KB", bytes / 1024.0) : bytes + " bytes";
  }
}
