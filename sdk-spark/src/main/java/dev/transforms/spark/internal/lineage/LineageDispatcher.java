package dev.transforms.spark.internal.lineage;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.collection.JavaConverters;

/**
 * One per Spark context: hands each running transform's {@code openlineage-spark} listener the events of
 * its own jobs. An SQL execution belongs to the run whose tag is among the job tags of its start event;
 * a job to the run of its execution, or whose tag it carries; a task to the run of its stage's job.
 * Events of no watched run cost a map lookup.
 */
final class LineageDispatcher extends SparkListener {

  private static final Logger LOG = LoggerFactory.getLogger(LineageDispatcher.class);
  private static final String JOB_TAGS = "spark.job.tags";
  private static final String EXECUTION_ID = "spark.sql.execution.id";

  private final Map<String, SparkListener> byTag = new ConcurrentHashMap<>();
  private final Map<Long, SparkListener> byExecution = new ConcurrentHashMap<>();
  private final Map<Integer, SparkListener> byJob = new ConcurrentHashMap<>();
  private final Map<Integer, SparkListener> byStage = new ConcurrentHashMap<>();

  void watch(String tag, SparkListener listener) {
    byTag.put(tag, listener);
  }

  void forget(String tag) {
    SparkListener listener = byTag.remove(tag);
    if (listener != null) {
      byExecution.values().removeIf(l -> l == listener);
      byJob.values().removeIf(l -> l == listener);
      byStage.values().removeIf(l -> l == listener);
    }
  }

  @Override
  public void onOtherEvent(SparkListenerEvent event) {
    if (event instanceof DrainMarker marker) {
      marker.received().complete(null);
      return;
    }
    if (byTag.isEmpty()) {
      return;
    }
    SparkListener listener = null;
    if (event instanceof SparkListenerSQLExecutionStart start) {
      for (String tag : JavaConverters.setAsJavaSet(start.jobTags())) {
        listener = byTag.get(tag);
        if (listener != null) {
          byExecution.put(start.executionId(), listener);
          break;
        }
      }
    } else if (event instanceof SparkListenerSQLExecutionEnd end) {
      listener = byExecution.remove(end.executionId());
    }
    if (listener != null) {
      deliver(listener, event);
    }
  }

  @Override
  public void onJobStart(SparkListenerJobStart jobStart) {
    if (byTag.isEmpty()) {
      return;
    }
    Properties properties = jobStart.properties();
    SparkListener listener = null;
    String execution = properties == null ? null : properties.getProperty(EXECUTION_ID);
    if (execution != null) {
      try {
        listener = byExecution.get(Long.parseLong(execution));
      } catch (NumberFormatException e) {
        listener = null;
      }
    }
    String tags = properties == null ? null : properties.getProperty(JOB_TAGS);
    if (listener == null && tags != null) {
      for (String tag : tags.split(",")) {
        listener = byTag.get(tag);
        if (listener != null) {
          break;
        }
      }
    }
    if (listener == null) {
      return;
    }
    byJob.put(jobStart.jobId(), listener);
    for (Object stage : JavaConverters.seqAsJavaList(jobStart.stageIds())) {
      byStage.put((Integer) stage, listener);
    }
    SparkListener chosen = listener;
    deliver(chosen, jobStart);
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd jobEnd) {
    SparkListener listener = byJob.remove(jobEnd.jobId());
    if (listener != null) {
      deliver(listener, jobEnd);
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
    SparkListener listener = byStage.get(taskEnd.stageId());
    if (listener != null) {
      deliver(listener, taskEnd);
    }
  }

  private static void deliver(SparkListener listener, SparkListenerEvent event) {
    try {
      if (event instanceof SparkListenerJobStart start) {
        listener.onJobStart(start);
      } else if (event instanceof SparkListenerJobEnd end) {
        listener.onJobEnd(end);
      } else if (event instanceof SparkListenerTaskEnd task) {
        listener.onTaskEnd(task);
      } else {
        listener.onOtherEvent(event);
      }
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      // Lineage is best effort: a plan the integration cannot read never fails the transform.
      LOG.debug("The OpenLineage Spark listener failed on {}", event.getClass().getSimpleName(), e);
    }
  }
}
