package dev.transforms.graph;

import dev.transforms.api.Handle;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.spi.DatasetKind;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * A generated pipeline of table transforms, for the layout benchmark and the tests: no classes, only
 * specs. Transform {@code t<i>} writes {@code /synthetic/t<i>} and reads one to three datasets written
 * by earlier transforms (or one of ten sources), so the graph has long and short edges and fans in and
 * out like a real pipeline's.
 */
public final class SyntheticPipeline {

  private SyntheticPipeline() {}

  /**
   * A pipeline of {@code size} transforms, the same for the same seed.
   *
   * @param size how many transforms
   * @param seed the random seed
   * @return the transforms, each after the producers of its inputs
   */
  public static List<TransformSpec> generate(int size, long seed) {
    Random random = new Random(seed);
    List<TransformSpec> transforms = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      List<String> inputs = new ArrayList<>();
      int count = 1 + random.nextInt(3);
      for (int k = 0; k < count; k++) {
        // Mostly recent outputs, sometimes a source: a pipeline's depth grows with its size.
        String input = i == 0 || random.nextInt(8) == 0 ? "/synthetic/source" + random.nextInt(10)
            : "/synthetic/t" + Math.max(0, i - 1 - random.nextInt(Math.min(i, 12)));
        if (!inputs.contains(input)) {
          inputs.add(input);
        }
      }
      transforms.add(transform("t" + i, inputs, List.of("/synthetic/t" + i), "single-node"));
    }
    return transforms;
  }

  /**
   * The spec of a table transform with the given inputs and outputs, for tests.
   *
   * @param name its name
   * @param inputs its input paths
   * @param outputs its output paths
   * @param engine its engine's name
   * @return the spec
   */
  public static TransformSpec transform(String name, List<String> inputs, List<String> outputs, String engine) {
    List<ParameterSpec> parameters = new ArrayList<>();
    for (String input : inputs) {
      parameters.add(parameter(parameters.size(), Handle.Role.INPUT, input));
    }
    for (String output : outputs) {
      parameters.add(parameter(parameters.size(), Handle.Role.OUTPUT, output));
    }
    return new TransformSpec(name, "", method(), engine, "dev.transforms:sdk-" + engine, parameters, Optional.empty());
  }

  private static ParameterSpec parameter(int index, Handle.Role role, String path) {
    return new ParameterSpec(index, "p" + index, "Table", role, Optional.of(DatasetPath.of(path)),
        Optional.of(DatasetKind.TABLE), "", "", List.of());
  }

  private static Method method() {
    try {
      return SyntheticPipeline.class.getMethod("generate", int.class, long.class);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }
}
