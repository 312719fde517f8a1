package dev.transforms.spark.internal.lineage;

import dev.transforms.runtime.spi.RunLineage;
import io.openlineage.spark.agent.OpenLineageSparkListener;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lineage of one Spark transform's jobs while its method runs. {@link #start} tags the calling
 * thread's jobs with a tag of the run's own and gives the run a listener of {@code openlineage-spark},
 * configured so that every event it emits names the transform's run as its parent (the application run
 * of the integration is the transform's run: same id, the transform's name as the application's name)
 * and the build's run as its root, and goes to the build's queue through the {@code transforms} transport.
 * The context's one {@link LineageDispatcher} hands that listener the events of jobs with the run's tag
 * only, so transforms running at once keep their lineage apart. {@link #close} removes the tag, waits
 * (at most the build's lineage timeout) until the dispatcher has handled every event posted so far, and
 * closes the run's listener.
 */
final class SparkLineage implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SparkLineage.class);
  private static final Map<SparkContext, LineageDispatcher> DISPATCHERS = new WeakHashMap<>();
  private static final String QUEUE = "transformsLineage";
  private static final String PREFIX = "spark.openlineage.";

  private final SparkContext context;
  private final LineageDispatcher dispatcher;
  private final OpenLineageSparkListener listener;
  private final String tag;
  private final String key;
  private final long timeoutMillis;
  private boolean closed;

  private SparkLineage(SparkContext context, LineageDispatcher dispatcher, OpenLineageSparkListener listener,
      String tag, String key, long timeoutMillis) {
    this.context = context;
    this.dispatcher = dispatcher;
    this.listener = listener;
    this.tag = tag;
    this.key = key;
    this.timeoutMillis = timeoutMillis;
  }

  static SparkLineage start(SparkSession session, RunLineage lineage) {
    SparkContext context = session.sparkContext();
    String key = lineage.runId().toString();
    SparkConf conf = context.getConf().clone();
    // Whatever OpenLineage settings the session has, this run's listener takes the build's.
    for (scala.Tuple2<String, String> entry : conf.getAll()) {
      if (entry._1().startsWith(PREFIX)) {
        conf.remove(entry._1());
      }
    }
    conf.set(PREFIX + "transport.type", TransformsTransportBuilder.TYPE);
    conf.set(PREFIX + "transport.run", key);
    conf.set(PREFIX + "namespace", lineage.namespace());
    conf.set(PREFIX + "appName", lineage.jobName());
    conf.set(PREFIX + "applicationRunId", key);
    conf.set(PREFIX + "parentJobNamespace", lineage.namespace());
    conf.set(PREFIX + "parentJobName", lineage.buildJobName());
    conf.set(PREFIX + "parentRunId", lineage.buildRunId().toString());
    TransformsTransport.SINKS.put(key, lineage.events());
    OpenLineageSparkListener listener = new OpenLineageSparkListener(conf);
    String tag = "transforms-lineage-" + key;
    dispatcher(context).watch(tag, listener);
    context.addJobTag(tag);
    return new SparkLineage(context, dispatcher(context), listener, tag, key, lineage.timeout().toMillis());
  }

  private static synchronized LineageDispatcher dispatcher(SparkContext context) {
    LineageDispatcher dispatcher = DISPATCHERS.get(context);
    if (dispatcher == null) {
      dispatcher = new LineageDispatcher();
      // A queue of its own: the integration's plan visitors never hold up Spark's other listeners.
      context.listenerBus().addToQueue(dispatcher, QUEUE);
      DISPATCHERS.put(context, dispatcher);
    }
    return dispatcher;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    context.removeJobTag(tag);
    try {
      DrainMarker marker = new DrainMarker();
      context.listenerBus().post(marker);
      marker.received().get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      LOG.warn("OpenLineage: the lineage of this transform's Spark jobs was not all handled within {} ms "
          + "(openlineage.timeout); it may be incomplete", timeoutMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      LOG.debug("Waiting for the lineage of Spark jobs failed", e);
    } finally {
      dispatcher.forget(tag);
      try {
        listener.close();
      } catch (RuntimeException | LinkageError e) {
        LOG.debug("Closing the OpenLineage Spark listener failed", e);
      }
      TransformsTransport.SINKS.remove(key);
    }
  }
}
