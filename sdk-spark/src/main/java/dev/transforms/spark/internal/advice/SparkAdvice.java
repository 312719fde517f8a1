package dev.transforms.spark.internal.advice;

import dev.transforms.runtime.spi.TransformRun;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The advisories of one Spark transform while its method runs: {@link #start} tags the calling
 * thread's jobs with a tag of the run's own and tells the context's listener to inspect what carries
 * it; {@link #finish} removes the tag, posts a marker event and waits until the listener receives it
 * (its queue delivers in order, so all of the run's events are in, with no sleep) and stops listening
 * for the run.
 *
 * <p>Under level {@code off} nothing is started: no listener, no tag, no plan is looked at.
 */
public final class SparkAdvice implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SparkAdvice.class);
  private static final Map<SparkContext, AdviceListener> LISTENERS = new WeakHashMap<>();
  private static final AtomicLong RUNS = new AtomicLong();
  private static final long DRAIN_MILLIS = 60_000;
  private static final String QUEUE = "transformsAdvice";
  static final AtomicLong INSPECTING = new AtomicLong();
  static final AtomicLong DRAINING = new AtomicLong();

  private final SparkContext context;
  private final AdviceListener listener;
  private final String tag;
  private boolean finished;

  private SparkAdvice(SparkContext context, AdviceListener listener, String tag) {
    this.context = context;
    this.listener = listener;
    this.tag = tag;
  }

  /**
   * Starts watching a run on the calling thread, the one that invokes the method.
   *
   * @param session the build's session
   * @param run the run
   * @return the watch, or {@code null} when the run's advisory level is {@code off}
   */
  public static SparkAdvice start(SparkSession session, TransformRun run) {
    if (!run.advisories().enabled()) {
      return null;
    }
    SparkContext context = session.sparkContext();
    AdviceListener listener = listener(context);
    String tag = "transforms-advice-" + RUNS.incrementAndGet() + "-" + run.stagingBranch();
    listener.watch(tag, new PlanAdvice(run));
    context.addJobTag(tag);
    return new SparkAdvice(context, listener, tag);
  }

  private static synchronized AdviceListener listener(SparkContext context) {
    AdviceListener listener = LISTENERS.get(context);
    if (listener == null) {
      listener = new AdviceListener(context);
      // A queue of its own: draining it never waits for other listeners (the UI's status, the event log).
      context.listenerBus().addToQueue(listener, QUEUE);
      LISTENERS.put(context, listener);
    }
    return listener;
  }

  /**
   * Ends the watch: removes the tag from the calling thread, waits for the listener bus to deliver
   * every event posted so far, and stops inspecting the run. Call it on the thread that started it.
   */
  public void finish() {
    if (finished) {
      return;
    }
    finished = true;
    context.removeJobTag(tag);
    long start = System.nanoTime();
    try {
      // Every event of the run was posted before its actions returned, so it is queued before this marker.
      DrainMarker marker = new DrainMarker();
      context.listenerBus().post(marker);
      // A stopped context (the JVM's shutdown hook stopped it on Ctrl-C) delivers nothing more: stop
      // waiting as soon as it stops, rather than for the whole drain time.
      long deadline = start + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
      while (true) {
        try {
          marker.received().get(Math.min(200, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))),
              TimeUnit.MILLISECONDS);
          break;
        } catch (TimeoutException slice) {
          if (context.isStopped()) {
            break;
          }
          if (System.nanoTime() >= deadline) {
            throw slice;
          }
        }
      }
    } catch (TimeoutException e) {
      LOG.warn("Spark's listener bus did not deliver this transform's events within {} s; its advisories may be "
          + "incomplete", DRAIN_MILLIS / 1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      LOG.debug("Draining the listener bus failed", e);
    } finally {
      listener.forget(tag);
      DRAINING.addAndGet(System.nanoTime() - start);
    }
  }

  /**
   * For the benchmark: nanoseconds spent so far in this JVM inspecting plans (on the listener's
   * thread) and waiting for the listener in {@link #finish()} (on the transforms' thread).
   *
   * @return the two totals, inspecting first
   */
  public static long[] cost() {
    return new long[] {INSPECTING.get(), DRAINING.get()};
  }

  @Override
  public void close() {
    finish();
  }
}
