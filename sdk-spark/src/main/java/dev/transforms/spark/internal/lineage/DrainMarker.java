package dev.transforms.spark.internal.lineage;

import java.util.concurrent.CompletableFuture;
import org.apache.spark.scheduler.SparkListenerEvent;

/** Posted after a run's jobs: when the dispatcher receives it, every event of the run was dispatched. */
final class DrainMarker implements SparkListenerEvent {

  private final CompletableFuture<Void> received = new CompletableFuture<>();

  CompletableFuture<Void> received() {
    return received;
  }

  @Override
  public boolean logEvent() {
    return false;
  }
}
