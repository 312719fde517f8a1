package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every public method of the types a user writes against is named somewhere in README.md or docs/,
 * as {@code name(} or {@code .name}: a method nobody can find is a method nobody uses.
 */
class DocsCoverTheApiTest {

  /** The types of the public surface: handles, contexts, fixtures, assertions, edits, Arrow IO. */
  static final List<Class<?>> SURFACE = List.of(
      dev.transforms.api.TransformContext.class,
      dev.transforms.api.IncrementalTransformContext.class,
      dev.transforms.spark.SparkTransformContext.class,
      dev.transforms.spark.TableTransformInput.class,
      dev.transforms.spark.SparkChanges.class,
      dev.transforms.spark.SparkApplyChanges.class,
      dev.transforms.spark.TableTransformOutput.class,
      dev.transforms.spark.IncrementalTransformInput.class,
      dev.transforms.spark.TransformInput.class,
      dev.transforms.spark.TransformOutput.class,
      dev.transforms.singlenode.IcebergInput.class,
      dev.transforms.singlenode.IcebergOutput.class,
      dev.transforms.singlenode.SingleNodeTransformContext.class,
      dev.transforms.singlenode.Changelog.class,
      dev.transforms.singlenode.SqlSession.class,
      dev.transforms.singlenode.edits.RowEdits.class,
      dev.transforms.singlenode.edits.ApplyChanges.class,
      dev.transforms.singlenode.edits.ApplyChanges.AppliedChanges.class,
      dev.transforms.singlenode.edits.UpsertOptions.class,
      dev.transforms.singlenode.edits.UpsertOptions.Builder.class,
      dev.transforms.singlenode.edits.UpsertResult.class,
      dev.transforms.singlenode.edits.OverwriteResult.class,
      dev.transforms.singlenode.filter.RowFilter.class,
      dev.transforms.singlenode.arrow.ArrowRows.class,
      dev.transforms.singlenode.arrow.ArrowTableWriter.class,
      dev.transforms.testing.TestWarehouse.class,
      dev.transforms.testing.BuildResult.class,
      dev.transforms.testing.TableAssert.class,
      dev.transforms.testing.BuildResultAssert.class,
      dev.transforms.testing.TransformResultAssert.class,
      dev.transforms.testing.TransformsAssertions.class,
      dev.transforms.testing.Row.class,
      dev.transforms.runtime.BuildReport.class,
      dev.transforms.runtime.TransformResult.class,
      dev.transforms.runtime.OutputWrites.class,
      dev.transforms.Transforms.class,
      dev.transforms.Transforms.Selection.class);

  private static final Set<String> OBJECT_METHODS = Set.of("equals", "hashCode", "toString", "getClass", "notify",
      "notifyAll", "wait", "values", "valueOf", "compareTo");

  @Test
  void everyPublicMethodOfTheSurfaceIsNamedInTheDocs() throws IOException {
    StringBuilder docs = new StringBuilder();
    for (Path page : DocSnippets.pages()) {
      docs.append(Files.readString(page));
    }
    String text = docs.toString();
    List<String> missing = new ArrayList<>();
    for (Class<?> type : SURFACE) {
      Set<String> names = new TreeSet<>();
      Arrays.stream(type.getMethods())
          .filter(m -> Modifier.isPublic(m.getModifiers()) && !m.isSynthetic() && !m.isBridge())
          .filter(m -> m.getDeclaringClass().getName().startsWith("dev.transforms."))
          .map(Method::getName)
          .filter(n -> !OBJECT_METHODS.contains(n))
          .forEach(names::add);
      for (String name : names) {
        if (!text.contains(name + "(") && !text.contains("." + name + "`") && !text.contains("`" + name + "`")) {
          missing.add(type.getSimpleName() + "." + name);
        }
      }
    }
    assertThat(missing).as("public methods no page of the docs names").isEmpty();
  }
}
