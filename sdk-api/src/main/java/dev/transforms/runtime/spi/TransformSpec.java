package dev.transforms.runtime.spi;

import dev.transforms.api.Handle;
import dev.transforms.runtime.DatasetPath;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;

/**
 * A validated transform: what the runtime needs to plan, resolve and invoke it.
 *
 * @param name the transform's name, unique in a build
 * @param description the transform's description, possibly empty
 * @param method the annotated method
 * @param engine the engine that runs it, such as {@code spark} or {@code single-node}
 * @param engineArtifact the Maven coordinates of the engine's module, for the missing-engine error
 * @param parameters every parameter, in signature order
 * @param incremental the incremental options, empty for a transform that always runs in full
 */
public record TransformSpec(
    String name,
    String description,
    Method method,
    String engine,
    String engineArtifact,
    List<ParameterSpec> parameters,
    Optional<IncrementalSpec> incremental) {

  /**
   * Copies the list so the spec stays immutable.
   *
   * @param name the transform name
   * @param description the description
   * @param method the method
   * @param engine the engine name
   * @param engineArtifact the engine module's coordinates
   * @param parameters the parameters
   * @param incremental the incremental options
   */
  public TransformSpec {
    parameters = List.copyOf(parameters);
  }

  /**
   * The input parameters, in signature order.
   *
   * @return the inputs
   */
  public List<ParameterSpec> inputs() {
    return parameters.stream().filter(p -> p.role() == Handle.Role.INPUT).toList();
  }

  /**
   * The output parameters, in signature order.
   *
   * @return the outputs
   */
  public List<ParameterSpec> outputs() {
    return parameters.stream().filter(p -> p.role() == Handle.Role.OUTPUT).toList();
  }

  /**
   * The paths of the inputs.
   *
   * @return input paths in signature order
   */
  public List<DatasetPath> inputPaths() {
    return inputs().stream().map(ParameterSpec::requirePath).toList();
  }

  /**
   * The paths of the outputs.
   *
   * @return output paths in signature order
   */
  public List<DatasetPath> outputPaths() {
    return outputs().stream().map(ParameterSpec::requirePath).toList();
  }
}
