package dev.transforms.spark;

import dev.transforms.runtime.ResolvedTable;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** What one transform's run leaves behind in the session and on disk, undone when the run ends. */
final class RunScope {

  private final SparkSession session;
  private final Set<String> views = new LinkedHashSet<>();
  private final List<FileOutputHandle> fileOutputs = new ArrayList<>();

  RunScope(SparkSession session) {
    this.session = session;
  }

  /** Registers a temporary view named after a dataset path. */
  void registerView(String path, Dataset<Row> rows) {
    rows.createOrReplaceTempView(ResolvedTable.quote(path));
    views.add(path);
  }

  void stageFiles(FileOutputHandle output) {
    fileOutputs.add(output);
  }

  /** Moves every staged file output into place. */
  void publishFiles() {
    fileOutputs.forEach(FileOutputHandle::publish);
  }

  /** Drops the views and, unless published, the staged files. */
  void close(boolean published) {
    for (String view : views) {
      try {
        session.catalog().dropTempView(view);
      } catch (RuntimeException e) {
        // The view dies with the build's session anyway.
      }
    }
    if (!published) {
      for (FileOutputHandle output : fileOutputs) {
        try {
          output.discard();
        } catch (RuntimeException e) {
          // A leftover staging folder is never read; keep discarding the others.
        }
      }
    }
  }
}
