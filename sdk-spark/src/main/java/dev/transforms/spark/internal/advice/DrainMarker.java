package dev.transforms.spark.internal.advice;

import java.util.concurrent.CompletableFuture;
import org.apache.spark.scheduler.SparkListenerEvent;

/**
 * An event the engine posts when a transform's method returned. Queues deliver events in the order
 * they were posted, so when the advice listener receives this marker it has received every event of
 * the run before it; only the listener's own queue is waited for, not the bus's other listeners.
 */
final class DrainMarker implements SparkListenerEvent {

  private final CompletableFuture<Void> received = new CompletableFuture<>();

  CompletableFuture<Void> received() {
    return received;
  }

  /** Never written to Spark's event log. */
  @Override
  public boolean logEvent() {
    return false;
  }
}
