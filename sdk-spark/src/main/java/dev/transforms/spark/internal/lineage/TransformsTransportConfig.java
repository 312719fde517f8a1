package dev.transforms.spark.internal.lineage;

import io.openlineage.client.transports.TransportConfig;

/**
 * The settings of the transport that hands a Spark job's events to the build: which run's queue.
 */
public final class TransformsTransportConfig implements TransportConfig {

  private String run;
  private String type;

  /** Settings to be filled by the client's configuration reader. */
  public TransformsTransportConfig() {}

  /**
   * The run whose queue takes the events.
   *
   * @return the run's key
   */
  public String getRun() {
    return run;
  }

  /**
   * Sets the run.
   *
   * @param run the run's key
   */
  public void setRun(String run) {
    this.run = run;
  }

  /**
   * The transport's type, {@value TransformsTransportBuilder#TYPE}.
   *
   * @return the type
   */
  public String getType() {
    return type;
  }

  /**
   * Sets the type.
   *
   * @param type the type
   */
  public void setType(String type) {
    this.type = type;
  }
}
