package dev.transforms.spark.internal.lineage;

import io.openlineage.client.transports.Transport;
import io.openlineage.client.transports.TransportBuilder;
import io.openlineage.client.transports.TransportConfig;

/**
 * Makes the transport {@value #TYPE} known to {@code openlineage-spark}'s client (through
 * {@code META-INF/services}): the events of a transform's Spark jobs then go to the build's queue, not
 * to a transport of their own, so they share its deadline, its one warning and its settings (which never
 * enter Spark's configuration).
 */
public final class TransformsTransportBuilder implements TransportBuilder {

  /** The transport's type. */
  public static final String TYPE = "transforms";

  /** Found by the service loader. */
  public TransformsTransportBuilder() {}

  @Override
  public String getType() {
    return TYPE;
  }

  @Override
  public TransportConfig getConfig() {
    return new TransformsTransportConfig();
  }

  @Override
  public Transport build(TransportConfig config) {
    return new TransformsTransport(((TransformsTransportConfig) config).getRun());
  }
}
