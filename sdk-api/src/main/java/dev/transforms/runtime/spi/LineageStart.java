package dev.transforms.runtime.spi;

import dev.transforms.runtime.LineageSettings;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * What a {@link LineageProvider} receives when a build starts.
 *
 * @param settings the {@code openlineage.*} settings, checked when the configuration loaded; enabled
 * @param config the configuration (catalogs, the files' root, the pipeline's name)
 * @param resolver resolves dataset paths to tables
 * @param transforms the transforms of the build, in plan order
 * @param buildId the build's identifier
 * @param branch the branch the build reads and publishes; {@code main} for an ordinary build
 * @param warnings takes the build's lineage warnings (logged, masked)
 * @param mask hides the configuration's secrets, and every secret loaded, in a text sent or logged
 * @param describe an error and its causes as text, secrets masked, one cause a line
 */
public record LineageStart(LineageSettings settings, TransformsConfig config, TableResolver resolver,
    List<TransformSpec> transforms, String buildId, String branch, Consumer<String> warnings,
    UnaryOperator<String> mask, Function<Throwable, String> describe) {

  /** Copies the list of transforms. */
  public LineageStart {
    transforms = List.copyOf(transforms);
  }
}
