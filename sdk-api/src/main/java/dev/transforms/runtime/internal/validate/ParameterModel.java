package dev.transforms.runtime.internal.validate;

import dev.transforms.api.Handle;
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
 * @param checks the check annotations on the parameter ({@code dev.transforms.api.checks}), repeated
 *     ones each on its own, in source order
 */
public record ParameterModel(
    int index, String name, String typeName, Optional<HandleModel> handle, List<PathModel> paths,
    List<CheckModel> checks) {

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

  /**
   * A check annotation on a parameter, with every value (defaults included): texts as {@code String},
   * text arrays as {@code List<String>}, numbers as {@code Number}, the level as its name, and the
   * class of {@code @Check} as its binary name, with {@code "classProblem"} saying what makes it
   * unusable (empty when it is fine).
   *
   * @param annotation the annotation's simple name, such as {@code PrimaryKey}
   * @param values the values by element name
   */
  public record CheckModel(String annotation, java.util.Map<String, Object> values) {

    /**
     * A text value.
     *
     * @param key the element name
     * @return the text, empty when absent
     */
    public String text(String key) {
      Object value = values.get(key);
      return value == null ? "" : value.toString();
    }

    /**
     * A text array value.
     *
     * @param key the element name
     * @return the texts, empty when absent
     */
    @SuppressWarnings("unchecked")
    public List<String> texts(String key) {
      Object value = values.get(key);
      return value instanceof List<?> list ? (List<String>) list : List.of();
    }

    /**
     * A number value.
     *
     * @param key the element name
     * @param fallback the value when absent
     * @return the number
     */
    public Number number(String key, Number fallback) {
      Object value = values.get(key);
      return value instanceof Number n ? n : fallback;
    }
  }
}
