package dev.transforms.graph;

import dev.transforms.cli.CommandExtension;

/** Adds {@code transforms graph} to the command line when this module is on the classpath. */
public final class GraphCommandExtension implements CommandExtension {

  /** Creates the extension; {@link java.util.ServiceLoader} calls it. */
  public GraphCommandExtension() {}

  @Override
  public Object command() {
    return new GraphCommand();
  }
}
