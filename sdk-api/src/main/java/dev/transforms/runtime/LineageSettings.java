package dev.transforms.runtime;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.config.ConfigValues;
import dev.transforms.runtime.internal.config.EnvironmentOverrides;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code openlineage.*} keys of a configuration, checked: whether builds emit OpenLineage events, in
 * which namespace, how long the end of a build may wait for them, and the transport's settings in the
 * OpenLineage client's own names (those of its Spark integration, {@code spark.openlineage.transport.*},
 * without {@code spark.}).
 *
 * <p>Reading the settings never loads the OpenLineage client: a configuration with lineage off, or a
 * command that builds nothing, costs nothing.
 *
 * @param enabled {@code openlineage.enabled}
 * @param namespace the job namespace: {@code openlineage.namespace}, or the pipeline's name
 * @param timeout {@code openlineage.timeout}: the most the end of a build waits for its events to be sent
 * @param transport the keys under {@code openlineage.transport.}, without that prefix ({@code type},
 *     {@code url}, {@code auth.type}, {@code headers.Authorization}...)
 */
public record LineageSettings(boolean enabled, String namespace, Duration timeout, Map<String, String> transport) {

  /** The prefix of the keys. */
  public static final String PREFIX = "openlineage.";
  /** The switch. */
  public static final String ENABLED = PREFIX + "enabled";
  /** The job namespace. */
  public static final String NAMESPACE = PREFIX + "namespace";
  /** The flush deadline at the end of a build. */
  public static final String TIMEOUT = PREFIX + "timeout";
  /** The prefix of the transport's keys. */
  public static final String TRANSPORT = PREFIX + "transport.";

  /** The timeout unless set. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  /** The transports of the OpenLineage client, with the keys each one needs. */
  static final Map<String, List<String>> TRANSPORTS = Map.of(
      "http", List.of("url"),
      "file", List.of("location"),
      "console", List.of(),
      "kafka", List.of("topicName", "properties.bootstrap.servers"),
      "noop", List.of());

  /** Transport keys whose values are maps: the rest of such a key, dots included, is one map key. */
  static final Set<String> MAP_KEYS = Set.of("headers", "urlParams", "properties");

  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*(ms|s|m)?");

  /** Copies the transport's keys. */
  public LineageSettings {
    transport = java.util.Collections.unmodifiableMap(new TreeMap<>(transport));
  }

  /**
   * The settings of a configuration.
   *
   * @param values the configuration's values
   * @return the settings; {@link #enabled()} is false unless {@code openlineage.enabled=true}
   * @throws ConfigurationException naming the key, for an unknown key, a switch that is not true or false, a
   *     timeout that is not a duration, an unknown transport type, or a transport missing a key it needs
   */
  public static LineageSettings of(ConfigValues values) {
    Map<String, String> keys = properties(values);
    Map<String, String> transport = new TreeMap<>();
    boolean enabled = false;
    Duration timeout = DEFAULT_TIMEOUT;
    String namespace = values.pipelineName();
    for (Map.Entry<String, String> entry : keys.entrySet()) {
      String key = entry.getKey();
      String value = entry.getValue();
      if (key.equals(ENABLED)) {
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
          throw new ConfigurationException("Configuration key '" + ENABLED + "' must be true or false, not '" + value
              + "'");
        }
        enabled = Boolean.parseBoolean(value.toLowerCase(Locale.ROOT));
      } else if (key.equals(NAMESPACE)) {
        if (value.isBlank()) {
          throw new ConfigurationException("Configuration key '" + NAMESPACE + "' is empty; name the namespace of "
              + "the pipeline's jobs, or leave it out for '" + values.pipelineName() + "'");
        }
        namespace = value;
      } else if (key.equals(TIMEOUT)) {
        timeout = duration(value);
      } else if (key.startsWith(TRANSPORT) && key.length() > TRANSPORT.length()) {
        transport.put(key.substring(TRANSPORT.length()), value);
      } else {
        throw new ConfigurationException("Unknown configuration key '" + key + "'; the OpenLineage keys are "
            + ENABLED + ", " + NAMESPACE + ", " + TIMEOUT + " and " + TRANSPORT + "* (type, url, endpoint, "
            + "timeoutInMillis, auth.type, auth.apiKey, headers.NAME, location, topicName, properties.NAME...)");
      }
    }
    checkTransport(transport, enabled);
    return new LineageSettings(enabled, namespace, timeout, transport);
  }

  /**
   * The warning for lineage left off by omission: when {@code openlineage.enabled} is not set at all (not
   * in the file, not in the environment) but other {@code openlineage.} keys are, the configuration says
   * where events should go while the switch, off by default, keeps them from going anywhere. The switch
   * is not implied by those keys, since a deployment may keep the transport in the file and turn lineage
   * on by the environment ({@code TRANSFORMS_OPENLINEAGE_ENABLED}) only where events should be sent.
   * {@code openlineage.enabled=false} set on purpose is silent.
   *
   * @param values the configuration's values
   * @param buildId the build that sends nothing
   * @return the warning naming the keys (never their values) and the fix; empty when lineage is on, off
   *     on purpose, or not configured
   */
  public static java.util.Optional<String> offWithSettings(ConfigValues values, String buildId) {
    Map<String, String> keys = properties(values);
    if (keys.containsKey(ENABLED) || keys.isEmpty()) {
      return java.util.Optional.empty();
    }
    TreeSet<String> set = new TreeSet<>(keys.keySet());
    String origins = String.join(" and ", new TreeSet<>(set.stream().map(values::origin)
        .filter(o -> !o.isEmpty()).toList()));
    return java.util.Optional.of("OpenLineage is off: build " + buildId + " sends no OpenLineage events, although "
        + (origins.isEmpty() ? "the configuration" : origins) + " sets " + String.join(", ", set) + "; "
        + ENABLED + " is not set, and lineage is off unless it is true. To send events, set " + ENABLED
        + "=true (or the environment variable " + EnvironmentOverrides.variable(ENABLED) + "=true); to keep "
        + "lineage off without this warning, set " + ENABLED + "=false.");
  }

  /**
   * The {@code openlineage.*} keys as the file and environment set them, values trimmed (secrets unmasked).
   *
   * @param values the configuration's values
   * @return the keys with their values, sorted
   */
  public static Map<String, String> properties(ConfigValues values) {
    Map<String, String> keys = new TreeMap<>();
    values.withPrefix(PREFIX).forEach((key, value) -> keys.put(key, value.strip()));
    return java.util.Collections.unmodifiableMap(keys);
  }

  /** The transport's type, {@code console} when none is set. */
  public String transportType() {
    return transport.getOrDefault("type", "console").strip().toLowerCase(Locale.ROOT);
  }

  /**
   * Where the transport sends events, for messages: the URL without credentials, path or query, or the
   * file, or the type alone.
   *
   * @return a short description, never a secret
   */
  public String describeTarget() {
    String type = transportType();
    return switch (type) {
      case "http" -> "http transport to " + withoutCredentials(transport.getOrDefault("url", ""));
      case "file" -> "file transport to " + transport.getOrDefault("location", "");
      case "kafka" -> "kafka transport to topic " + transport.getOrDefault("topicName", "");
      default -> type + " transport";
    };
  }

  /** A URL's scheme, host and port only. */
  static String withoutCredentials(String url) {
    try {
      URI uri = new URI(url.strip());
      if (uri.getHost() == null) {
        return uri.getScheme() == null ? "(no url)" : uri.getScheme() + ":";
      }
      return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    } catch (URISyntaxException e) {
      return "(an invalid url)";
    }
  }

  private static void checkTransport(Map<String, String> transport, boolean enabled) {
    String type = transport.getOrDefault("type", "console").strip().toLowerCase(Locale.ROOT);
    if (!TRANSPORTS.containsKey(type)) {
      throw new ConfigurationException("Configuration key '" + TRANSPORT + "type' is '" + transport.get("type")
          + "', a transport this SDK cannot send OpenLineage events with; use one of "
          + new TreeSet<>(TRANSPORTS.keySet()));
    }
    for (String key : transport.keySet()) {
      String first = key.contains(".") ? key.substring(0, key.indexOf('.')) : key;
      if (!MAP_KEYS.contains(first) && !first.equals("auth") && key.contains(".")) {
        throw new ConfigurationException("Configuration key '" + TRANSPORT + key + "' has a dot in a place no "
            + "transport setting has one; nested keys are auth.NAME, headers.NAME, urlParams.NAME and properties.NAME");
      }
    }
    if (!enabled) {
      return;
    }
    for (String needed : TRANSPORTS.get(type)) {
      String value = transport.get(needed);
      if (value == null || value.isBlank()) {
        throw new ConfigurationException("Configuration key '" + TRANSPORT + needed + "' is not set; the " + type
            + " transport needs it (" + ENABLED + " is true)");
      }
    }
    if (type.equals("http")) {
      String url = transport.get("url").strip();
      try {
        URI uri = new URI(url);
        if (uri.getScheme() == null || uri.getHost() == null
            || !(uri.getScheme().equalsIgnoreCase("http") || uri.getScheme().equalsIgnoreCase("https"))) {
          throw new URISyntaxException(url, "not an http or https URL with a host");
        }
      } catch (URISyntaxException e) {
        // The value may hold a secret: only its shape is described.
        throw new ConfigurationException("Configuration key '" + TRANSPORT + "url' must be an http:// or https:// "
            + "URL with a host, such as http://127.0.0.1:5000");
      }
    }
    String timeout = transport.get("timeoutInMillis");
    if (timeout != null && !timeout.strip().matches("\\d{1,9}")) {
      throw new ConfigurationException("Configuration key '" + TRANSPORT + "timeoutInMillis' must be a whole number "
          + "of milliseconds, not '" + timeout + "'");
    }
  }

  private static Duration duration(String value) {
    Matcher matcher = DURATION.matcher(value.strip().toLowerCase(Locale.ROOT));
    if (matcher.matches()) {
      long amount = Long.parseLong(matcher.group(1));
      String unit = matcher.group(2) == null ? "s" : matcher.group(2);
      Duration duration = switch (unit) {
        case "ms" -> Duration.ofMillis(amount);
        case "m" -> Duration.ofMinutes(amount);
        default -> Duration.ofSeconds(amount);
      };
      if (!duration.isZero() && duration.compareTo(Duration.ofHours(1)) <= 0) {
        return duration;
      }
    }
    throw new ConfigurationException("Configuration key '" + TIMEOUT + "' must be a duration from 1ms to 60m, such "
        + "as 5s, 500ms or 2m, not '" + value + "'");
  }
}
