package dev.transforms.runtime.internal.validate;

import dev.transforms.api.Handle;
import dev.transforms.api.Incremental;
import dev.transforms.api.Input;
import dev.transforms.api.InvalidTransformException;
import dev.transforms.api.Output;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.api.checks.Level;
import dev.transforms.runtime.internal.validate.ParameterModel.HandleModel;
import dev.transforms.runtime.internal.validate.ParameterModel.PathModel;
import dev.transforms.runtime.spi.TransformSpec;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The run-time front end of the {@link TransformValidator}: models methods by reflection and turns
 * valid ones into {@link TransformSpec}s.
 */
public final class ReflectiveModels {

  private ReflectiveModels() {}

  /**
   * Validates every {@code @Transform} method of a class.
   *
   * @param type a class holding transforms
   * @return a spec per transform method, in name order
   * @throws InvalidTransformException if the class has no transform, or any is invalid; the message
   *     lists every problem
   */
  public static List<TransformSpec> transformsOf(Class<?> type) {
    List<Method> methods = Arrays.stream(type.getDeclaredMethods())
        .filter(m -> m.isAnnotationPresent(Transform.class))
        .sorted(Comparator.comparing(Method::getName).thenComparing(Method::getParameterCount))
        .toList();
    if (methods.isEmpty()) {
      throw new InvalidTransformException("Class " + type.getName() + " has no @Transform method");
    }
    return methods.stream().map(ReflectiveModels::transformOf).toList();
  }

  /**
   * Validates one method.
   *
   * @param method a method annotated {@code @Transform}
   * @return its spec
   * @throws InvalidTransformException listing every problem, if the method is not a valid transform
   */
  public static TransformSpec transformOf(Method method) {
    TransformValidator.Result result = TransformValidator.validate(model(method));
    if (!result.isValid()) {
      throw new InvalidTransformException(result.problems().stream().map(Problem::message)
          .collect(Collectors.joining("\n")));
    }
    ValidTransform valid = result.transform().orElseThrow();
    method.setAccessible(true);
    return new TransformSpec(valid.name(), valid.description(), method, valid.engine(), valid.engineArtifact(),
        valid.parameters(), valid.incremental());
  }

  /**
   * Models a method for the validator.
   *
   * @param method any method
   * @return its model
   */
  public static MethodModel model(Method method) {
    Class<?> owner = method.getDeclaringClass();
    Transform transform = method.getAnnotation(Transform.class);
    Incremental incremental = method.getAnnotation(Incremental.class);
    List<ParameterModel> parameters = new ArrayList<>();
    Parameter[] declared = method.getParameters();
    for (int i = 0; i < declared.length; i++) {
      parameters.add(parameter(i, declared[i]));
    }
    return new MethodModel(
        owner.getSimpleName(),
        owner.getName(),
        isPublicAllTheWay(owner),
        !Modifier.isAbstract(owner.getModifiers()) && !owner.isInterface()
            && (owner.getEnclosingClass() == null || Modifier.isStatic(owner.getModifiers())),
        hasPublicNoArgConstructor(owner),
        method.getName(),
        Modifier.isPublic(method.getModifiers()),
        Modifier.isStatic(method.getModifiers()),
        method.getReturnType() == void.class,
        transform == null ? "" : transform.name(),
        transform == null ? "" : transform.description(),
        Optional.ofNullable(incremental).map(inc -> new MethodModel.IncrementalModel(inc.v2Semantics(),
            inc.semanticVersion(), List.of(inc.snapshotInputs()), inc.requireIncremental(), inc.changes())),
        parameters);
  }

  private static ParameterModel parameter(int index, Parameter parameter) {
    Class<?> type = parameter.getType();
    Handle handle = type.getAnnotation(Handle.class);
    Optional<HandleModel> handleModel = Optional.ofNullable(handle).map(h -> new HandleModel(h.engine(), h.role(),
        Arrays.stream(h.paths()).map(Class::getSimpleName).collect(Collectors.toCollection(LinkedHashSet::new)),
        h.artifact()));
    List<PathModel> paths = new ArrayList<>();
    for (Annotation annotation : parameter.getAnnotations()) {
      if (annotation instanceof TableInput a) {
        paths.add(new PathModel("TableInput", a.value(), "", ""));
      } else if (annotation instanceof TableOutput a) {
        paths.add(new PathModel("TableOutput", a.value(), "", ""));
      } else if (annotation instanceof Input a) {
        paths.add(new PathModel("Input", a.value(), a.format(), a.schema()));
      } else if (annotation instanceof Output a) {
        paths.add(new PathModel("Output", a.value(), a.format(), ""));
      }
    }
    String name = parameter.isNamePresent() ? parameter.getName() : "#" + (index + 1);
    return new ParameterModel(index, name, type.getName(), handleModel, paths, checks(parameter));
  }

  /** The check annotations of a parameter, repeated ones unpacked from their containers. */
  private static List<ParameterModel.CheckModel> checks(Parameter parameter) {
    List<ParameterModel.CheckModel> checks = new ArrayList<>();
    for (Annotation annotation : parameter.getAnnotations()) {
      Class<? extends Annotation> type = annotation.annotationType();
      if (isCheck(type)) {
        checks.add(check(annotation));
      } else if (type.getEnclosingClass() != null && isCheck(type.getEnclosingClass())
          && type.getSimpleName().equals("List")) {
        for (Annotation repeated : (Annotation[]) invoke(annotation, "value")) {
          checks.add(check(repeated));
        }
      }
    }
    return checks;
  }

  private static boolean isCheck(Class<?> type) {
    return type.isAnnotation() && type.getPackageName().equals(Level.class.getPackageName())
        && CheckRules.ANNOTATIONS.contains(type.getSimpleName());
  }

  private static ParameterModel.CheckModel check(Annotation annotation) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (Method element : annotation.annotationType().getDeclaredMethods()) {
      Object value = invoke(annotation, element.getName());
      if (value instanceof String[] texts) {
        values.put(element.getName(), List.of(texts));
      } else if (value instanceof Enum<?> constant) {
        values.put(element.getName(), constant.name());
      } else if (value instanceof Class<?> type) {
        values.put(element.getName(), type.getName());
        values.put("classProblem", classProblem(type));
      } else {
        values.put(element.getName(), value);
      }
    }
    return new ParameterModel.CheckModel(annotation.annotationType().getSimpleName(), values);
  }

  private static Object invoke(Annotation annotation, String element) {
    try {
      Method method = annotation.annotationType().getDeclaredMethod(element);
      method.setAccessible(true);
      return method.invoke(annotation);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Cannot read " + element + " of " + annotation, e);
    }
  }

  /** What keeps a check class from being created by the runtime; empty when nothing does. */
  private static String classProblem(Class<?> type) {
    if (!isPublicAllTheWay(type)) {
      return "the class must be public (and static, if nested)";
    }
    if (Modifier.isAbstract(type.getModifiers()) || type.isInterface()
        || (type.getEnclosingClass() != null && !Modifier.isStatic(type.getModifiers()))) {
      return "the class must be concrete (and static, if nested)";
    }
    if (!hasPublicNoArgConstructor(type)) {
      return "the class needs a public no-argument constructor";
    }
    return "";
  }

  private static boolean isPublicAllTheWay(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
      if (!Modifier.isPublic(c.getModifiers())) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasPublicNoArgConstructor(Class<?> type) {
    return Arrays.stream(type.getConstructors()).anyMatch(c -> c.getParameterCount() == 0);
  }
}
