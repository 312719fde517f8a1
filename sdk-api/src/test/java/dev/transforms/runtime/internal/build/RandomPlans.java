package dev.transforms.runtime.internal.build;

import dev.transforms.api.Handle;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.spi.DatasetKind;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Random pipelines for the scheduler's tests: transforms {@code t0, t1, ...}, each reading one to three
 * datasets (a source table {@code /src/sK}, or the output of an earlier transform) and writing
 * {@code /out/tN}. The specs name a method of the caller's choosing for every number of inputs.
 */
final class RandomPlans {

  /** The number of source tables transforms may read. */
  static final int SOURCES = 3;

  private RandomPlans() {}

  /**
   * A random pipeline.
   *
   * @param random the seed's generator
   * @param size how many transforms
   * @param methods the method of a transform with 1, 2 and 3 inputs (index 0 to 2); its parameters are a
   *     context, then the inputs, then the output
   * @param engine the engine every transform runs on
   * @return the plan
   */
  static BuildPlan of(Random random, int size, List<Method> methods, String engine) {
    List<TransformSpec> specs = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      Set<String> inputs = new LinkedHashSet<>();
      int count = 1 + random.nextInt(3);
      while (inputs.size() < count) {
        // Mostly earlier outputs, so plans have chains and diamonds, sometimes sources.
        inputs.add(i > 0 && random.nextInt(4) != 0 ? "/out/t" + random.nextInt(i) : "/src/s" + random.nextInt(SOURCES));
      }
      specs.add(spec("t" + i, List.copyOf(inputs), methods.get(inputs.size() - 1), engine));
    }
    return BuildPlan.of(specs);
  }

  /**
   * A transform reading the given paths and writing {@code /out/NAME}.
   *
   * @param name the name
   * @param inputs the input paths
   * @param method its method: a context, then one parameter per input, then the output
   * @param engine its engine
   * @return the spec
   */
  static TransformSpec spec(String name, List<String> inputs, Method method, String engine) {
    List<ParameterSpec> parameters = new ArrayList<>();
    parameters.add(new ParameterSpec(0, "ctx", "IncrementalTransformContext", Handle.Role.CONTEXT, Optional.empty(),
        Optional.empty(), "", "", List.of()));
    for (String input : inputs) {
      parameters.add(new ParameterSpec(parameters.size(), "in" + parameters.size(), "TestInput", Handle.Role.INPUT,
          Optional.of(DatasetPath.of(input)), Optional.of(DatasetKind.TABLE), "", "", List.of()));
    }
    parameters.add(new ParameterSpec(parameters.size(), "out", "TestOutput", Handle.Role.OUTPUT,
        Optional.of(DatasetPath.of("/out/" + name)), Optional.of(DatasetKind.TABLE), "", "", List.of()));
    return new TransformSpec(name, "", method, engine, "", parameters, Optional.empty());
  }
}
