package dev.transforms.spark.internal.lineage;

import io.openlineage.client.OpenLineage;
import io.openlineage.client.OpenLineageClientUtils;
import io.openlineage.client.transports.Transport;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Hands the events of {@code openlineage-spark} to the queue of the build whose transform ran the jobs,
 * as JSON: the SDK's own client (shaded) reads them back. Dataset and job events are not emitted by the
 * Spark integration for SQL executions and are ignored.
 */
final class TransformsTransport extends Transport {

  /** The queue of each running transform, by the key its listener's settings name. */
  static final Map<String, Consumer<String>> SINKS = new ConcurrentHashMap<>();

  private final String run;

  TransformsTransport(String run) {
    this.run = run;
  }

  @Override
  public void emit(OpenLineage.RunEvent event) {
    Consumer<String> sink = run == null ? null : SINKS.get(run);
    if (sink != null) {
      sink.accept(OpenLineageClientUtils.toJson(event));
    }
  }

  @Override
  public void emit(OpenLineage.DatasetEvent event) {}

  @Override
  public void emit(OpenLineage.JobEvent event) {}
}
