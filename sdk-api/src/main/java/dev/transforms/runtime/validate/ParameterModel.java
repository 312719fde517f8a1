package dev.transforms.runtime.validate;

import dev.transforms.runtime.spec.Handle;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One parameter of a transform method as the validator sees it.
 *
 * @param index the position in the signature
 * @param name the parameter's name
 * @param typeName the declared type's fully qualified name
 * @param handle the declared type's {@code @Handle} values, empty for a type that is no handle
 * @param paths the path annotations on the parameter, in source order
 */
public record ParameterModel(
    int index, String name, String typeName, Optional<HandleModel> handle, List<PathModel> paths) {

  /**
   * The declared type's simple name.
   *
   * @return the simple type name
   */
  public String simpleTypeName() {
    String erased = typeName.contains("<") ? typeName.substring(0, typeName.indexOf('<')) : typeName;
    return erased.substring(erased.lastIndexOf('.') + 1);
  }

  /**
   * The {@code @Handle} values of a handle type.
   *
   * @param engine the engine name, or {@link Handle#ANY_ENGINE}
   * @param role context, input or output
   * @param acceptedPaths simple names of the path annotations the type accepts
   * @param artifact the engine module's Maven coordinates
   */
  public record HandleModel(String engine, Handle.Role role, Set<String> acceptedPaths, String artifact) {}

  /**
   * A path annotation on a parameter.
   *
   * @param annotation the annotation's simple name: {@code TableInput}, {@code TableOutput},
   *     {@code Input} or {@code Output}
   * @param value the path
   * @param format the {@code format} value of {@code @Input}/{@code @Output}, empty otherwise
   * @param schema the {@code schema} value of {@code @Input}, empty otherwise
   */
  public record PathModel(String annotation, String value, String format, String schema) {}
}
