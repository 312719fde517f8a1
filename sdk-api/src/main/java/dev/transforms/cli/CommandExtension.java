package dev.transforms.cli;

/**
 * A subcommand that another module adds to the {@code transforms} command line, found with
 * {@link java.util.ServiceLoader} (list the implementation in
 * {@code META-INF/services/dev.transforms.cli.CommandExtension}). It keeps the dependencies of such a
 * command, such as the graph layout library of {@code transforms graph}, out of {@code sdk-api}.
 *
 * <p>The returned object is a picocli {@code @Command}; a field annotated {@code @ParentCommand} of type
 * {@link TransformsCli} receives the command line it runs in, for its configuration and plan.
 */
public interface CommandExtension {

  /**
   * A new instance of the subcommand.
   *
   * @return a picocli command object
   */
  Object command();
}
