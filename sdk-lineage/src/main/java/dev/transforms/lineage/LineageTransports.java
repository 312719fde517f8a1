package dev.transforms.lineage;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.LineageSettings;
import io.openlineage.client.OpenLineageClientUtils;
import io.openlineage.client.OpenLineageConfig;
import io.openlineage.client.transports.Transport;
import io.openlineage.client.transports.TransportConfig;
import io.openlineage.client.transports.TransportFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the OpenLineage client's transport from the {@code openlineage.transport.*} keys, the way the
 * client reads its own configuration: the flat keys become the nested {@code transport} object of the
 * client's configuration ({@code auth.type} under {@code auth}; everything after {@code headers.},
 * {@code urlParams.} or {@code properties.} is one map key, dots included), which the client's own
 * mapper turns into its transport settings.
 */
final class LineageTransports {

  /**
   * Transports by their settings, kept for the JVM's life: a build reuses the HTTP client (and its open
   * connections) of the builds before it, which saves a connection and a client per build.
   */
  private static final Map<List<Object>, Transport> SHARED = new java.util.concurrent.ConcurrentHashMap<>();

  private LineageTransports() {}

  /**
   * The transport of some settings, built once per JVM and shared by every build with the same settings.
   *
   * @param settings the settings
   * @return the transport; never closed by a build
   */
  static Transport shared(LineageSettings settings) {
    List<Object> key = List.of(settings.transport(), settings.timeout());
    Transport transport = SHARED.get(key);
    if (transport == null) {
      transport = SHARED.computeIfAbsent(key, k -> build(settings));
    }
    return transport;
  }

  /**
   * The transport of some settings. An http transport without {@code timeoutInMillis} gets the build's
   * lineage timeout as its request timeout.
   *
   * @param settings the settings
   * @return the transport
   * @throws ConfigurationException if the client refuses the settings, or the kafka transport lacks its
   *     library
   */
  static Transport build(LineageSettings settings) {
    Map<String, Object> transport = nested(settings.transport());
    String type = settings.transportType();
    transport.put("type", type);
    if (type.equals("http") && !transport.containsKey("timeoutInMillis")) {
      transport.put("timeoutInMillis", Long.toString(Math.max(1, settings.timeout().toMillis())));
    }
    if (type.equals("kafka")) {
      try {
        Class.forName("org.apache.kafka.clients.producer.KafkaProducer", false, LineageTransports.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new ConfigurationException("Configuration key '" + LineageSettings.TRANSPORT + "type' is kafka, but "
            + "org.apache.kafka:kafka-clients is not on the classpath; add it to the pipeline's dependencies");
      }
    }
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("transport", transport);
    OpenLineageConfig<?> config;
    try {
      byte[] json = OpenLineageClientUtils.newObjectMapper().writeValueAsBytes(root);
      config = OpenLineageClientUtils.loadOpenLineageConfigJson(new ByteArrayInputStream(json),
          new TypeReference<OpenLineageConfig<?>>() {});
    } catch (Exception e) {
      // The client's message may quote a value; only the keys are named.
      throw new ConfigurationException("The OpenLineage client refuses the keys " + LineageSettings.TRANSPORT
          + settings.transport().keySet() + " of the " + type + " transport: " + e.getClass().getSimpleName()
          + ". See docs/lineage.md for each transport's keys");
    }
    TransportConfig transportConfig = config.getTransportConfig();
    return new TransportFactory(transportConfig).build();
  }

  /** The flat keys as nested maps: {@code auth.type=x} is {@code {auth: {type: x}}}. */
  static Map<String, Object> nested(Map<String, String> flat) {
    Map<String, Object> root = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : flat.entrySet()) {
      String key = entry.getKey();
      int dot = key.indexOf('.');
      if (dot < 0) {
        root.put(key, entry.getValue());
        continue;
      }
      String first = key.substring(0, dot);
      String rest = key.substring(dot + 1);
      @SuppressWarnings("unchecked")
      Map<String, Object> child = (Map<String, Object>) root.computeIfAbsent(first, k -> new LinkedHashMap<>());
      child.put(rest, entry.getValue());
    }
    return root;
  }
}
