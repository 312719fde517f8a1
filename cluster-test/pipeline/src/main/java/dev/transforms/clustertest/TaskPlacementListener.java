package dev.transforms.clustertest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Counts the finished tasks of a Spark application by the executor that ran them, and writes the
 * counts when the application ends, one {@code EXECUTOR_ID=TASKS} line each, to the file named by
 * {@value #FILE_SETTING}. Registered with {@code --conf spark.extraListeners=...}; the cluster check
 * reads the file to prove that tasks ran on the executors, not in the driver.
 */
public final class TaskPlacementListener extends SparkListener {

  /** The Spark setting naming the file the counts go to. */
  public static final String FILE_SETTING = "spark.transforms.test.taskPlacementFile";

  private final Path file;
  private final Map<String, Long> tasksByExecutor = new ConcurrentHashMap<>();

  /**
   * Creates the listener; Spark calls this constructor for {@code spark.extraListeners}.
   *
   * @param conf the application's settings, with {@value #FILE_SETTING}
   */
  public TaskPlacementListener(SparkConf conf) {
    this.file = Path.of(conf.get(FILE_SETTING));
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
    tasksByExecutor.merge(taskEnd.taskInfo().executorId(), 1L, Long::sum);
  }

  @Override
  public void onApplicationEnd(SparkListenerApplicationEnd applicationEnd) {
    String lines = new TreeMap<>(tasksByExecutor).entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue() + "\n")
        .collect(Collectors.joining());
    try {
      Files.writeString(file, lines);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the task placement to " + file, e);
    }
  }
}
