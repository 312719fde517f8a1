package dev.transforms.runtime.spi;

import dev.transforms.api.Handle;
import dev.transforms.runtime.DatasetPath;
import java.util.Optional;

/**
 * One validated parameter of a transform method.
 *
 * @param index the parameter's position in the method signature
 * @param name the parameter's name (as compiled; {@code arg0} without {@code -parameters})
 * @param typeName the fully qualified name of the declared handle type
 * @param role context, input or output
 * @param path the dataset path, present for inputs and outputs
 * @param kind table or files, present for inputs and outputs
 * @param format the file format of an {@code @Input}/{@code @Output}, empty otherwise
 * @param schema the declared DDL schema of an {@code @Input}, empty otherwise
 * @param checks the data expectations declared on an output; empty otherwise
 */
public record ParameterSpec(
    int index,
    String name,
    String typeName,
    Handle.Role role,
    Optional<DatasetPath> path,
    Optional<DatasetKind> kind,
    String format,
    String schema,
    java.util.List<CheckSpec> checks) {

  /**
   * Copies the checks so the spec stays immutable.
   *
   * @param index the position
   * @param name the name
   * @param typeName the handle type
   * @param role the role
   * @param path the dataset path
   * @param kind table or files
   * @param format the file format
   * @param schema the declared schema
   * @param checks the expectations
   */
  public ParameterSpec {
    checks = java.util.List.copyOf(checks);
  }

  /**
   * The dataset path of an input or output.
   *
   * @return the path
   * @throws IllegalStateException for a context parameter, which has no path
   */
  public DatasetPath requirePath() {
    return path.orElseThrow(() -> new IllegalStateException("Parameter " + name + " has no dataset path"));
  }

  /**
   * The simple name of the handle type, as users write it.
   *
   * @return the simple type name
   */
  public String simpleTypeName() {
    return typeName.substring(typeName.lastIndexOf('.') + 1);
  }
}
