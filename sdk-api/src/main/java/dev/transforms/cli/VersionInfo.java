package dev.transforms.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import picocli.CommandLine;

/**
 * What {@code transforms --version} prints: the SDK's version, and those of Iceberg, Spark (when on
 * the classpath) and Java. Each comes from the jar that holds it (its Maven descriptor, or Iceberg's
 * own build properties), so it is the version that runs, not the one a build file asked for.
 */
public final class VersionInfo implements CommandLine.IVersionProvider {

  /** What is printed for a version that no jar on the classpath states. */
  public static final String UNKNOWN = "unknown (not run from a released jar)";

  /** Creates the provider; picocli calls this. */
  public VersionInfo() {}

  /** The lines {@code --version} prints: the SDK's, Iceberg's, Spark's and Java's versions. */
  @Override
  public String[] getVersion() {
    return new String[] {"transforms " + sdk(), "Iceberg " + iceberg(),
        "Spark " + spark().orElse("not on the classpath (the single-node engine runs without it)"),
        "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
  }

  /** The SDK's version, from the Maven descriptor of the {@code sdk-api} jar; {@value #UNKNOWN} outside a jar. */
  private static String sdk() {
    return mavenVersion("dev.transforms", "sdk-api")
        .or(() -> Optional.ofNullable(VersionInfo.class.getPackage().getImplementationVersion()))
        .orElse(UNKNOWN);
  }

  /** Iceberg's version, as Iceberg reports it, such as {@code 1.12.0}. */
  private static String iceberg() {
    try {
      return org.apache.iceberg.IcebergBuild.version();
    } catch (RuntimeException | LinkageError e) {
      return mavenVersion("org.apache.iceberg", "iceberg-core").orElse(UNKNOWN);
    }
  }

  /** Spark's version with its Scala version, from its core jar's Maven descriptor; empty without Spark. */
  private static Optional<String> spark() {
    for (String scala : List.of("2.12", "2.13")) {
      Optional<String> version = mavenVersion("org.apache.spark", "spark-core_" + scala);
      if (version.isPresent()) {
        return Optional.of(version.get() + " (Scala " + scala + ")");
      }
    }
    return Optional.empty();
  }

  private static Optional<String> mavenVersion(String group, String artifact) {
    ClassLoader loader = Optional.ofNullable(Thread.currentThread().getContextClassLoader())
        .orElse(VersionInfo.class.getClassLoader());
    String resource = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
    try (InputStream in = loader.getResourceAsStream(resource)) {
      if (in == null) {
        return Optional.empty();
      }
      Properties properties = new Properties();
      properties.load(in);
      return Optional.ofNullable(properties.getProperty("version")).map(String::strip).filter(v -> !v.isEmpty());
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
