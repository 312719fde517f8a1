package dev.transforms.lineage;

import dev.transforms.runtime.spi.BuildLineage;
import dev.transforms.runtime.spi.LineageProvider;
import dev.transforms.runtime.spi.LineageStart;

/**
 * Sends each build's OpenLineage events through the transport that {@code openlineage.transport.*}
 * configures ({@code docs/lineage.md}). Found with {@link java.util.ServiceLoader}; users only add this
 * module to their pipeline.
 */
public final class OpenLineageProvider implements LineageProvider {

  /** Creates the provider; {@link java.util.ServiceLoader} calls this. */
  public OpenLineageProvider() {
  }

  @Override
  public BuildLineage start(LineageStart start) {
    return OpenLineageBuild.start(start);
  }
}
