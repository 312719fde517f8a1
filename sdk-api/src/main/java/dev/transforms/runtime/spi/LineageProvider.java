package dev.transforms.runtime.spi;

/**
 * Starts the lineage of builds: found with {@link java.util.ServiceLoader} when a build's configuration
 * has {@code openlineage.enabled=true}. The {@code sdk-lineage} module holds the one the SDK ships, which
 * sends OpenLineage events; without a provider on the classpath such a build logs one warning naming the
 * module and runs without lineage.
 *
 * <p>A provider is called once per build, on the build's thread, before any transform runs.
 */
public interface LineageProvider {

  /**
   * The lineage of a build that starts. A transport that cannot be set up is the build's one lineage
   * warning ({@link LineageStart#warnings()}), and the build runs with {@link BuildLineage#OFF}: never
   * throw.
   *
   * @param start the build, its settings, and the SDK's masking of secrets
   * @return the build's lineage, {@link BuildLineage#OFF} when nothing is sent
   */
  BuildLineage start(LineageStart start);
}
