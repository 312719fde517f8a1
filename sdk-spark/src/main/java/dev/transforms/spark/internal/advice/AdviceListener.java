package dev.transforms.spark.internal.advice;

import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.transforms.spark.internal.ScalaCollections;

/**
 * One listener per Spark context. An SQL execution belongs to the run whose tag is among the job tags
 * its start event carries; its end event brings the executed query, which the run's {@link PlanAdvice}
 * inspects. A job started outside any SQL execution with a run's tag is passed on too (schema
 * inference runs such a job). Events of no watched run cost a map lookup.
 */
final class AdviceListener extends SparkListener {

  private static final Logger LOG = LoggerFactory.getLogger(AdviceListener.class);
  private static final String JOB_TAGS = "spark.job.tags";
  private static final String EXECUTION_ID = "spark.sql.execution.id";
  private static final String OVERWRITE_MODE = "spark.sql.sources.partitionOverwriteMode";

  private final SparkConf conf;

  private final Map<String, PlanAdvice> byTag = new ConcurrentHashMap<>();
  private final Map<Long, Execution> byExecution = new ConcurrentHashMap<>();

  /** A watched execution: its run, and the session's overwrite mode when it started. */
  private record Execution(PlanAdvice advice, String overwriteMode) {}

  AdviceListener(SparkContext context) {
    this.conf = context.getConf();
  }

  void watch(String tag, PlanAdvice advice) {
    byTag.put(tag, advice);
  }

  void forget(String tag) {
    PlanAdvice advice = byTag.remove(tag);
    if (advice != null) {
      byExecution.values().removeIf(e -> e.advice() == advice);
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
    try {
      if (event instanceof SparkListenerSQLExecutionStart start) {
        for (String tag : ScalaCollections.set(start.jobTags())) {
          PlanAdvice advice = byTag.get(tag);
          if (advice != null) {
            // The session's settings may change before the end event is delivered: keep the one that applied.
            scala.Option<String> mode = start.modifiedConfigs().get(OVERWRITE_MODE);
            byExecution.put(start.executionId(), new Execution(advice, mode.isDefined() ? mode.get()
                : conf.get(OVERWRITE_MODE, "static")));
            return;
          }
        }
      } else if (event instanceof SparkListenerSQLExecutionEnd end) {
        Execution execution = byExecution.remove(end.executionId());
        if (execution != null && end.qe() != null) {
          long start = System.nanoTime();
          execution.advice().inspect(end.executionName().isDefined() ? end.executionName().get() : "", end.qe(),
              execution.overwriteMode());
          SparkAdvice.INSPECTING.addAndGet(System.nanoTime() - start);
        }
      }
    } catch (RuntimeException | StackOverflowError e) {
      // Advice is best effort: a plan it cannot read must never fail the transform.
      LOG.debug("Could not inspect a query for advisories", e);
    }
  }

  @Override
  public void onJobStart(SparkListenerJobStart jobStart) {
    if (byTag.isEmpty()) {
      return;
    }
    Properties properties = jobStart.properties();
    if (properties == null || properties.getProperty(EXECUTION_ID) != null) {
      return;
    }
    String tags = properties.getProperty(JOB_TAGS);
    if (tags == null) {
      return;
    }
    for (String tag : tags.split(",")) {
      PlanAdvice advice = byTag.get(tag);
      if (advice != null) {
        // A stage is named after the call site that started its job: "json at MyTransform.java:42".
        String site = jobStart.stageInfos().isEmpty() ? "" : jobStart.stageInfos().last().name();
        advice.jobOutsideQueries(site);
        return;
      }
    }
  }
}
