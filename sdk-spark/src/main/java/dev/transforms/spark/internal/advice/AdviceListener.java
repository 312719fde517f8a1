package dev.transforms.spark.internal.advice;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.collection.JavaConverters;

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

  private final Map<String, PlanAdvice> byTag = new ConcurrentHashMap<>();
  private final Map<Long, PlanAdvice> byExecution = new ConcurrentHashMap<>();

  void watch(String tag, PlanAdvice advice) {
    byTag.put(tag, advice);
  }

  void forget(String tag) {
    PlanAdvice advice = byTag.remove(tag);
    if (advice != null) {
      byExecution.values().removeIf(a -> a == advice);
    }
  }

  @Override
  public void onOtherEvent(SparkListenerEvent event) {
    if (byTag.isEmpty()) {
      return;
    }
    try {
      if (event instanceof SparkListenerSQLExecutionStart start) {
        for (String tag : JavaConverters.setAsJavaSet(start.jobTags())) {
          PlanAdvice advice = byTag.get(tag);
          if (advice != null) {
            byExecution.put(start.executionId(), advice);
            return;
          }
        }
      } else if (event instanceof SparkListenerSQLExecutionEnd end) {
        PlanAdvice advice = byExecution.remove(end.executionId());
        if (advice != null && end.qe() != null) {
          advice.inspect(end.executionName().isDefined() ? end.executionName().get() : "", end.qe());
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
