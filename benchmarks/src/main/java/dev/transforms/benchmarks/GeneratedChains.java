package dev.transforms.benchmarks;

import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * Pipelines of independent chains for the pipeline benchmarks, written as a user would write them (one
 * class per chain, one {@code @Transform} method per step), compiled with the JDK's compiler when the
 * harness starts and loaded on a class loader of their own. Step {@code s} of chain {@code c} reads
 * {@code /bench/pipeline/root<c>} (step 0) or the output of step {@code s - 1}, and writes
 * {@code /bench/pipeline/c<c>_<s>}.
 */
final class GeneratedChains {

  private static final String IMPORTS = """
      import dev.transforms.api.TableInput;
      import dev.transforms.api.TableOutput;
      import dev.transforms.api.Transform;
      import dev.transforms.singlenode.IcebergInput;
      import dev.transforms.singlenode.IcebergOutput;
      import dev.transforms.spark.TableTransformInput;
      import dev.transforms.spark.TableTransformOutput;
      """;

  private GeneratedChains() {}

  /** A single-node step: copies its input whole. */
  static String singleNodeStep(String name, String input, String output) {
    return """
          @Transform(name = "%s")
          public void step(@TableInput("%s") IcebergInput in, @TableOutput("%s") IcebergOutput out) {
            out.writeTable(in.arrow());
          }
        """.formatted(name, input, output);
  }

  /** A Spark step: copies its input whole. */
  static String sparkStep(String name, String input, String output) {
    return """
          @Transform(name = "%s")
          public void step(@TableInput("%s") TableTransformInput in, @TableOutput("%s") TableTransformOutput out) {
            out.writeDataFrame(in.dataframe());
          }
        """.formatted(name, input, output);
  }

  /** The schema of the root tables: {@code id bigint, v string}. */
  static final Schema SCHEMA = new Schema(
      Types.NestedField.optional(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "v", Types.StringType.get()));

  /**
   * Appends rows {@code id = from .. from + count - 1, v = "value-<id>"} to a root table, in one commit.
   *
   * @param table the table
   * @param from the first id
   * @param count how many rows
   * @param allocator where the batch lives while it is written
   */
  static void appendRows(Table table, long from, int count, BufferAllocator allocator) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(SCHEMA), allocator)) {
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      VarCharVector v = (VarCharVector) root.getVector("v");
      for (int i = 0; i < count; i++) {
        id.setSafe(i, from + i);
        v.setSafe(i, ("value-" + (from + i)).getBytes(StandardCharsets.UTF_8));
      }
      root.setRowCount(count);
      table.refresh();
      AppendFiles append = table.newAppend();
      ArrowTableWriter.writeDataFiles(table, root).forEach(append::appendFile);
      append.commit();
    }
  }

  /** The path of a chain's root table. */
  static String root(int chain) {
    return "/bench/pipeline/root" + chain;
  }

  /**
   * Writes, compiles and loads the chains.
   *
   * @param folder where the sources and classes go
   * @param chains how many chains
   * @param length steps per chain
   * @param step the source of one step from its chain and position; gets the name, input and output
   * @return one class per chain, each step a class of its own (nested), loaded
   * @throws IOException if the files cannot be written
   * @throws ClassNotFoundException if a class did not compile
   */
  static List<Class<?>> compile(Path folder, int chains, int length,
      BiFunction<Integer, Integer, StepSource> step) throws IOException, ClassNotFoundException {
    List<String> sources = new ArrayList<>();
    for (int chain = 0; chain < chains; chain++) {
      StringBuilder source = new StringBuilder("package bench;\n\n").append(IMPORTS).append("\npublic class Chain")
          .append(chain).append(" {\n");
      for (int s = 0; s < length; s++) {
        String input = s == 0 ? root(chain) : "/bench/pipeline/c" + chain + "_" + (s - 1);
        String output = "/bench/pipeline/c" + chain + "_" + s;
        // One nested class per step: a method name is free to repeat.
        source.append("  public static class Step").append(s).append(" {\n")
            .append(step.apply(chain, s).source("c" + chain + "-" + s, input, output)).append("  }\n");
      }
      source.append("}\n");
      Path file = folder.resolve("bench").resolve("Chain" + chain + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source);
      sources.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException("The pipeline benchmarks compile their transforms: run them with a JDK");
    }
    List<String> arguments = new ArrayList<>(List.of("-proc:none", "-classpath", System.getProperty("java.class.path"),
        "-d", folder.toString()));
    arguments.addAll(sources);
    if (javac.run(null, null, null, arguments.toArray(String[]::new)) != 0) {
      throw new IllegalStateException("the generated chains did not compile");
    }
    URLClassLoader loader = new URLClassLoader(new URL[] {folder.toUri().toURL()},
        GeneratedChains.class.getClassLoader());
    List<Class<?>> classes = new ArrayList<>();
    for (int chain = 0; chain < chains; chain++) {
      for (int s = 0; s < length; s++) {
        classes.add(loader.loadClass("bench.Chain" + chain + "$Step" + s));
      }
    }
    return classes;
  }

  /** The source of one step's method, from its name, input and output paths. */
  @FunctionalInterface
  interface StepSource {
    /**
     * The source.
     *
     * @param name the transform's name
     * @param input its input path
     * @param output its output path
     * @return the method's source
     */
    String source(String name, String input, String output);
  }
}
