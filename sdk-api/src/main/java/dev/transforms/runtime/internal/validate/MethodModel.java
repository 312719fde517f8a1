package dev.transforms.runtime.internal.validate;

import java.util.List;
import java.util.Optional;

/**
 * A {@code @Transform} method as the validator sees it, independent of where it comes from: reflection
 * at run time ({@link ReflectiveModels}) or the compiler's element model in the annotation processor.
 *
 * @param className the declaring class's simple name, as shown in messages
 * @param qualifiedClassName the declaring class's binary name, as loaded at run time
 * @param classIsPublic whether the declaring class (and every class enclosing it) is public
 * @param classIsConcrete whether the declaring class can be instantiated (not abstract, not an
 *     interface, not an inner class)
 * @param classHasPublicNoArgConstructor whether the runtime can instantiate the class
 * @param methodName the method's name
 * @param isPublic whether the method is public
 * @param isStatic whether the method is static
 * @param returnsVoid whether the method returns {@code void}
 * @param transformName the {@code @Transform(name)} value, possibly empty
 * @param description the {@code @Transform(description)} value, possibly empty
 * @param incremental the {@code @Incremental} values, if present
 * @param parameters the parameters in signature order
 */
public record MethodModel(
    String className,
    String qualifiedClassName,
    boolean classIsPublic,
    boolean classIsConcrete,
    boolean classHasPublicNoArgConstructor,
    String methodName,
    boolean isPublic,
    boolean isStatic,
    boolean returnsVoid,
    String transformName,
    String description,
    Optional<IncrementalModel> incremental,
    List<ParameterModel> parameters) {

  /**
   * The method as named in messages.
   *
   * @return {@code ClassName.methodName}
   */
  public String label() {
    return className + "." + methodName;
  }

  /**
   * The {@code @Incremental} values of a method.
   *
   * @param v2Semantics the v2Semantics value
   * @param semanticVersion the semanticVersion value
   * @param snapshotInputs the snapshotInputs values
   * @param requireIncremental the requireIncremental value
   * @param changes the changes value
   */
  public record IncrementalModel(boolean v2Semantics, int semanticVersion, List<String> snapshotInputs,
      boolean requireIncremental, boolean changes) {}
}
