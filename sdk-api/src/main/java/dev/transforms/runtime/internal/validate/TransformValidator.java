package dev.transforms.runtime.internal.validate;

import dev.transforms.api.Handle;
import dev.transforms.api.InvalidPathException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.internal.validate.ParameterModel.HandleModel;
import dev.transforms.runtime.internal.validate.ParameterModel.PathModel;
import dev.transforms.runtime.spi.DatasetKind;
import dev.transforms.runtime.spi.IncrementalSpec;
import dev.transforms.runtime.spi.ParameterSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one set of rules a {@code @Transform} method must follow. The annotation processor runs it at
 * compile time (each problem becomes a compile error on the method or parameter), and the runtime
 * runs it again on every method it is asked to build, so both report the same messages.
 *
 * <p>Rules: the class is public and concrete, with a public no-argument constructor unless the method
 * is static; the method is public and returns void; every parameter is a handle type; each input or
 * output parameter carries exactly one path annotation that its handle type accepts, with a valid path;
 * a context parameter carries none; all handles belong to one engine; there is at least one output; no
 * path is used twice, and no output is also an input; {@code @Incremental} options are consistent.
 */
public final class TransformValidator {

  /** The simple names of the check annotations of {@code dev.transforms.api.checks}. */
  public static final Set<String> CHECK_ANNOTATIONS = CheckRules.ANNOTATIONS;

  private TransformValidator() {}

  /**
   * Validates one method.
   *
   * @param method the method's model
   * @return the valid transform, or every problem found
   */
  public static Result validate(MethodModel method) {
    List<Problem> problems = new ArrayList<>();
    String label = method.label();

    if (!method.isPublic()) {
      problems.add(Problem.onMethod("@Transform method " + label + " must be public"));
    }
    if (!method.classIsPublic()) {
      problems.add(Problem.onMethod("@Transform method " + label + " is in class " + method.className()
          + ", which must be public (and static, if nested)"));
    }
    if (!method.isStatic() && !method.classIsConcrete()) {
      problems.add(Problem.onMethod("@Transform method " + label + " is in " + method.className()
          + ", which cannot be instantiated; make the class concrete or the method static"));
    } else if (!method.isStatic() && method.classIsPublic() && !method.classHasPublicNoArgConstructor()) {
      problems.add(Problem.onMethod("Class " + method.className() + " needs a public no-argument constructor to run "
          + "@Transform method " + method.methodName() + " (or make the method static)"));
    }
    if (!method.returnsVoid()) {
      problems.add(Problem.onMethod("@Transform method " + label
          + " must return void; write outputs through its output parameters"));
    }

    List<ParameterSpec> parameters = new ArrayList<>();
    Map<String, ParameterModel> engines = new LinkedHashMap<>();
    String artifact = null;
    for (ParameterModel parameter : method.parameters()) {
      String where = "Parameter " + parameter.name() + " of @Transform method " + label;
      if (parameter.handle().isEmpty()) {
        problems.add(Problem.onParameter(parameter.index(), where + " has type " + parameter.simpleTypeName()
            + ", which is not a transform handle; use TableTransformInput/TableTransformOutput (Spark), "
            + "IcebergInput/IcebergOutput (single node), or a context type"));
        continue;
      }
      HandleModel handle = parameter.handle().get();
      if (!handle.engine().equals(Handle.ANY_ENGINE)) {
        engines.putIfAbsent(handle.engine(), parameter);
        artifact = artifact == null ? handle.artifact() : artifact;
      }
      if (handle.role() == Handle.Role.CONTEXT) {
        if (!parameter.paths().isEmpty()) {
          problems.add(Problem.onParameter(parameter.index(), where + " is a " + parameter.simpleTypeName()
              + " context and takes no @" + parameter.paths().get(0).annotation() + " annotation; remove it"));
        }
        if (!parameter.checks().isEmpty()) {
          problems.add(Problem.onParameter(parameter.index(), where + " is a context and takes no @"
              + parameter.checks().get(0).annotation() + "; put checks on a @TableOutput parameter"));
        }
        parameters.add(new ParameterSpec(parameter.index(), parameter.name(), parameter.typeName(), handle.role(),
            Optional.empty(), Optional.empty(), "", "", List.of()));
        continue;
      }
      if (parameter.paths().isEmpty()) {
        problems.add(Problem.onParameter(parameter.index(), where + " (" + parameter.simpleTypeName()
            + ") has no path annotation; annotate it with " + accepted(handle)));
        continue;
      }
      if (parameter.paths().size() > 1) {
        problems.add(Problem.onParameter(parameter.index(), where + " has both @"
            + parameter.paths().get(0).annotation() + " and @" + parameter.paths().get(1).annotation()
            + "; keep one"));
        continue;
      }
      PathModel path = parameter.paths().get(0);
      if (!handle.acceptedPaths().contains(path.annotation())) {
        problems.add(Problem.onParameter(parameter.index(), where + " is a " + parameter.simpleTypeName()
            + " and cannot be annotated @" + path.annotation() + "; use " + accepted(handle)));
        continue;
      }
      DatasetPath datasetPath;
      try {
        datasetPath = DatasetPath.of(path.value());
      } catch (InvalidPathException e) {
        problems.add(Problem.onParameter(parameter.index(), where + ": " + e.getMessage()));
        continue;
      }
      DatasetKind kind = path.annotation().startsWith("Table") ? DatasetKind.TABLE : DatasetKind.FILES;
      List<dev.transforms.runtime.spi.CheckSpec> checks = List.of();
      if (!parameter.checks().isEmpty()) {
        if (!path.annotation().equals("TableOutput")) {
          problems.add(Problem.onParameter(parameter.index(), where + " is a @" + path.annotation() + " and cannot "
              + "carry @" + parameter.checks().get(0).annotation() + "; checks apply to @TableOutput parameters"));
          continue;
        }
        checks = CheckRules.specs(where, parameter.index(), parameter.checks(), problems);
      }
      parameters.add(new ParameterSpec(parameter.index(), parameter.name(), parameter.typeName(), handle.role(),
          Optional.of(datasetPath), Optional.of(kind), path.format(), path.schema(), checks));
    }

    if (engines.size() > 1) {
      List<String> parts = new ArrayList<>();
      engines.forEach((engine, p) -> parts.add(engine + " (" + p.name() + ": " + p.simpleTypeName() + ")"));
      problems.add(Problem.onMethod("@Transform method " + label + " mixes handles of engines "
          + String.join(" and ", parts) + "; a transform runs on one engine, so split it in two"));
    }
    boolean allParametersHandled = method.parameters().stream().allMatch(p -> p.handle().isPresent());
    if (engines.isEmpty() && allParametersHandled && !method.parameters().isEmpty()) {
      problems.add(Problem.onMethod("@Transform method " + label + " declares only engine-neutral parameters; "
          + "declare Spark or single-node handles so the engine is known"));
    }
    if (allParametersHandled && parameters.stream().noneMatch(p -> p.role() == Handle.Role.OUTPUT)
        && problems.stream().allMatch(p -> p.parameterIndex().isEmpty())) {
      problems.add(Problem.onMethod("@Transform method " + label
          + " declares no output; add a parameter annotated @TableOutput or @Output"));
    }

    Map<DatasetPath, ParameterSpec> seen = new LinkedHashMap<>();
    for (ParameterSpec parameter : parameters) {
      if (parameter.path().isEmpty()) {
        continue;
      }
      ParameterSpec earlier = seen.putIfAbsent(parameter.requirePath(), parameter);
      if (earlier == null) {
        continue;
      }
      if (earlier.role() != parameter.role()) {
        problems.add(Problem.onParameter(parameter.index(), "@Transform method " + label + " reads and writes "
            + parameter.requirePath() + " (parameters " + earlier.name() + " and " + parameter.name()
            + "); an output cannot be its own input, write to a different path"));
      } else {
        problems.add(Problem.onParameter(parameter.index(), "@Transform method " + label + " uses path "
            + parameter.requirePath() + " twice (parameters " + earlier.name() + " and " + parameter.name()
            + "); declare each dataset once"));
      }
    }

    Optional<IncrementalSpec> incremental = Optional.empty();
    if (method.incremental().isPresent()) {
      MethodModel.IncrementalModel options = method.incremental().get();
      String where = "@Incremental on " + label;
      if (!options.v2Semantics()) {
        problems.add(Problem.onMethod(where + " sets v2Semantics = false, which is not supported; remove it"));
      }
      if (options.semanticVersion() < 1) {
        problems.add(Problem.onMethod(where + " has semanticVersion " + options.semanticVersion()
            + "; it must be at least 1"));
      }
      Set<DatasetPath> snapshotInputs = new LinkedHashSet<>();
      for (String text : options.snapshotInputs()) {
        try {
          DatasetPath path = DatasetPath.of(text);
          boolean isInput = parameters.stream()
              .anyMatch(p -> p.role() == Handle.Role.INPUT && p.requirePath().equals(path));
          if (!isInput) {
            problems.add(Problem.onMethod(where + " names snapshot input " + path
                + ", which is not an input of the method"));
          }
          snapshotInputs.add(path);
        } catch (InvalidPathException e) {
          problems.add(Problem.onMethod(where + ": snapshot input: " + e.getMessage()));
        }
      }
      incremental = Optional.of(new IncrementalSpec(options.semanticVersion(), snapshotInputs,
          options.requireIncremental(), options.changes()));
    }

    if (!problems.isEmpty()) {
      return new Result(Optional.empty(), List.copyOf(problems));
    }
    String name = method.transformName().isBlank() ? label : method.transformName().strip();
    String engine = engines.keySet().iterator().next();
    return new Result(Optional.of(new ValidTransform(name, method.description(), engine, artifact, parameters,
        incremental)), List.of());
  }

  private static String accepted(HandleModel handle) {
    return String.join(" or ", handle.acceptedPaths().stream().map(a -> "@" + a).toList());
  }

  /**
   * The outcome of validating one method.
   *
   * @param transform the valid transform, when there is no problem
   * @param problems every problem found, empty when valid
   */
  public record Result(Optional<ValidTransform> transform, List<Problem> problems) {

    /**
     * Whether the method is a valid transform.
     *
     * @return whether there is no problem
     */
    public boolean isValid() {
      return problems.isEmpty();
    }
  }
}
