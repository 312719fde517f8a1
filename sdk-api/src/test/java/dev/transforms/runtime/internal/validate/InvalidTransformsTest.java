package dev.transforms.runtime.internal.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.InvalidTransformException;
import dev.transforms.runtime.internal.discovery.TransformIndex;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One tiny class per invalid transform, each checked through both front ends of the one validator:
 * the annotation processor (a compile error on the element at fault) and reflection at run time.
 * Both must report exactly the same messages (several are joined by new lines at run time).
 */
class InvalidTransformsTest {

  private static final String IMPORTS = """
      package cases;
      import dev.transforms.api.*;
      import dev.transforms.api.checks.*;
      import dev.transforms.testengine.*;
      """;

  static Stream<Arguments> invalidTransforms() {
    return Stream.of(
        Arguments.of("NonPublicMethod", """
            public class NonPublicMethod {
              @Transform void t(@TableOutput("/a/b") TestOutput out) {}
            }""", "@Transform method NonPublicMethod.t must be public"),
        Arguments.of("NonPublicClass", """
            class NonPublicClass {
              @Transform public void t(@TableOutput("/a/b") TestOutput out) {}
            }""", "@Transform method NonPublicClass.t is in class NonPublicClass, which must be public (and static, if nested)"),
        Arguments.of("NoConstructor", """
            public class NoConstructor {
              public NoConstructor(int x) {}
              @Transform public void t(@TableOutput("/a/b") TestOutput out) {}
            }""", "Class NoConstructor needs a public no-argument constructor to run @Transform method t (or make the method static)"),
        Arguments.of("ReturnsValue", """
            public class ReturnsValue {
              @Transform public int t(@TableOutput("/a/b") TestOutput out) { return 1; }
            }""", "@Transform method ReturnsValue.t must return void; write outputs through its output parameters"),
        Arguments.of("MissingPathAnnotation", """
            public class MissingPathAnnotation {
              @Transform public void t(TestInput in, @TableOutput("/a/b") TestOutput out) {}
            }""", "Parameter in of @Transform method MissingPathAnnotation.t (TestInput) has no path annotation; "
            + "annotate it with @TableInput or @Input"),
        Arguments.of("UnsupportedType", """
            public class UnsupportedType {
              @Transform public void t(String name, @TableOutput("/a/b") TestOutput out) {}
            }""", "Parameter name of @Transform method UnsupportedType.t has type String, which is not a transform "
            + "handle; use TableTransformInput/TableTransformOutput (Spark), IcebergInput/IcebergOutput (single node), "
            + "or a context type"),
        Arguments.of("MixedEngines", """
            public class MixedEngines {
              @Transform public void t(@TableOutput("/a/b") TestOutput a, @TableOutput("/a/c") OtherEngineOutput b) {}
            }""", "@Transform method MixedEngines.t mixes handles of engines test (a: TestOutput) and absent "
            + "(b: OtherEngineOutput); a transform runs on one engine, so split it in two"),
        Arguments.of("NoOutput", """
            public class NoOutput {
              @Transform public void t(@TableInput("/a/b") TestInput in) {}
            }""", "@Transform method NoOutput.t declares no output; add a parameter annotated @TableOutput or @Output"),
        Arguments.of("PathUsedTwice", """
            public class PathUsedTwice {
              @Transform public void t(@TableInput("/a/b") TestInput x, @TableInput("/a/b") TestInput y,
                  @TableOutput("/a/c") TestOutput out) {}
            }""", "@Transform method PathUsedTwice.t uses path /a/b twice (parameters x and y); declare each dataset once"),
        Arguments.of("OutputIsInput", """
            public class OutputIsInput {
              @Transform public void t(@TableInput("/a/b") TestInput in, @TableOutput("/a/b") TestOutput out) {}
            }""", "@Transform method OutputIsInput.t reads and writes /a/b (parameters in and out); an output cannot be "
            + "its own input, write to a different path"),
        Arguments.of("WrongAnnotation", """
            public class WrongAnnotation {
              @Transform public void t(@TableInput("/a/b") TestOutput out) {}
            }""", "Parameter out of @Transform method WrongAnnotation.t is a TestOutput and cannot be annotated "
            + "@TableInput; use @TableOutput"),
        Arguments.of("TwoAnnotations", """
            public class TwoAnnotations {
              @Transform public void t(@TableInput("/a/b") @Input("/a/c") TestInput in, @TableOutput("/a/d") TestOutput out) {}
            }""", "Parameter in of @Transform method TwoAnnotations.t has both @TableInput and @Input; keep one"),
        Arguments.of("RelativePath", """
            public class RelativePath {
              @Transform public void t(@TableOutput("a/b") TestOutput out) {}
            }""", "Parameter out of @Transform method RelativePath.t: Invalid dataset path 'a/b': it is not absolute; "
            + "start it with '/'"),
        Arguments.of("DotDotPath", """
            public class DotDotPath {
              @Transform public void t(@TableOutput("/a/../b") TestOutput out) {}
            }""", "Parameter out of @Transform method DotDotPath.t: Invalid dataset path '/a/../b': it has a '..' "
            + "segment; relative segments are not allowed"),
        Arguments.of("ContextWithPath", """
            public class ContextWithPath {
              @Transform public void t(@TableInput("/a/b") TransformContext ctx, @TableOutput("/a/c") TestOutput out) {}
            }""", "Parameter ctx of @Transform method ContextWithPath.t is a TransformContext context and takes no "
            + "@TableInput annotation; remove it"),
        Arguments.of("OnlyContext", """
            public class OnlyContext {
              @Transform public void t(TransformContext ctx) {}
            }""", "@Transform method OnlyContext.t declares only engine-neutral parameters; declare Spark or "
            + "single-node handles so the engine is known\n"
            + "@Transform method OnlyContext.t declares no output; add a parameter annotated @TableOutput or @Output"),
        Arguments.of("SnapshotInputNotAnInput", """
            public class SnapshotInputNotAnInput {
              @Transform @Incremental(snapshotInputs = "/a/z")
              public void t(@TableInput("/a/b") TestInput in, @TableOutput("/a/c") TestOutput out) {}
            }""", "@Incremental on SnapshotInputNotAnInput.t names snapshot input /a/z, which is not an input of the method"),
        Arguments.of("SemanticVersionZero", """
            public class SemanticVersionZero {
              @Transform @Incremental(semanticVersion = 0)
              public void t(@TableInput("/a/b") TestInput in, @TableOutput("/a/c") TestOutput out) {}
            }""", "@Incremental on SemanticVersionZero.t has semanticVersion 0; it must be at least 1"),
        Arguments.of("CheckOnInput", """
            public class CheckOnInput {
              @Transform public void t(@TableInput("/a/b") @NotNull("id") TestInput in, @TableOutput("/a/c") TestOutput out) {}
            }""", "Parameter in of @Transform method CheckOnInput.t is a @TableInput and cannot carry @NotNull; checks "
            + "apply to @TableOutput parameters"),
        Arguments.of("PrimaryKeyWithoutColumns", """
            public class PrimaryKeyWithoutColumns {
              @Transform public void t(@TableOutput("/a/c") @PrimaryKey({}) TestOutput out) {}
            }""", "Parameter out of @Transform method PrimaryKeyWithoutColumns.t: @PrimaryKey needs at least one column "
            + "name, and no blank one"),
        Arguments.of("NotNullTwice", """
            public class NotNullTwice {
              @Transform public void t(@TableOutput("/a/c") @NotNull({"id", "id"}) TestOutput out) {}
            }""", "Parameter out of @Transform method NotNullTwice.t: @NotNull names a column twice: [id, id]"),
        Arguments.of("RowCountUpsideDown", """
            public class RowCountUpsideDown {
              @Transform public void t(@TableOutput("/a/c") @RowCount(min = 10, max = 5) TestOutput out) {}
            }""", "Parameter out of @Transform method RowCountUpsideDown.t: @RowCount has min 10 and max 5; they must "
            + "satisfy 0 <= min <= max"),
        Arguments.of("RangeWithoutBounds", """
            public class RangeWithoutBounds {
              @Transform public void t(@TableOutput("/a/c") @ValueRange(column = "amount") TestOutput out) {}
            }""", "Parameter out of @Transform method RangeWithoutBounds.t: @ValueRange needs a column and a min, a max "
            + "or both"),
        Arguments.of("UnknownColumnType", """
            public class UnknownColumnType {
              @Transform public void t(@TableOutput("/a/c") @HasColumn(value = "id", type = "bigint") TestOutput out) {}
            }""", "Parameter out of @Transform method UnknownColumnType.t: @HasColumn has type 'bigint', which is not "
            + "an Iceberg type; write it as Iceberg does: long, string, date, timestamptz, decimal(10,2)..."),
        Arguments.of("SameNameTwice", """
            public class SameNameTwice {
              @Transform public void t(@TableOutput("/a/c") @Satisfies(value = "a > 0", name = "sane")
                  @Satisfies(value = "b > 0", name = "sane") TestOutput out) {}
            }""", "Parameter out of @Transform method SameNameTwice.t declares two checks named 'sane'; give one a "
            + "different name with name = \"...\""),
        Arguments.of("CheckClassWithoutConstructor", """
            public class CheckClassWithoutConstructor {
              public static class Strict implements OutputCheck {
                public Strict(int level) {}
                public CheckOutcome check(CheckContext context) { return CheckOutcome.pass(); }
              }
              @Transform public void t(@TableOutput("/a/c") @Check(Strict.class) TestOutput out) {}
            }""", "Parameter out of @Transform method CheckClassWithoutConstructor.t: @Check(CheckClassWithoutConstructor"
            + ".Strict.class): the class needs a public no-argument constructor"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidTransforms")
  void theAnnotationProcessorReportsTheMessageAsACompileError(String name, String body, String expected,
      @TempDir Path dir) throws IOException {
    Compilation compilation = compile(dir, name, body, true);
    assertThat(compilation.success).isFalse();
    assertThat(compilation.errors).containsExactly(expected.split("\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidTransforms")
  void theRuntimeReportsTheSameMessage(String name, String body, String expected, @TempDir Path dir) throws Exception {
    Compilation compilation = compile(dir, name, body, false);
    assertThat(compilation.errors).isEmpty();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      Class<?> type = Class.forName("cases." + name, false, loader);
      assertThatThrownBy(() -> ReflectiveModels.transformsOf(type))
          .isInstanceOf(InvalidTransformException.class)
          .hasMessage(expected);
    }
  }

  @Test
  void aValidTransformIsIndexedAtCompileTimeAndDiscoveredAtRunTime(@TempDir Path dir) throws Exception {
    Compilation compilation = compile(dir, "Valid", """
        public class Valid {
          @Transform(name = "valid-copy")
          public void copy(TransformContext ctx, @TableInput("/a/in") TestInput in, @TableOutput("/a/out") TestOutput out) {}
        }""", true);
    assertThat(compilation.errors).isEmpty();
    assertThat(Files.readString(dir.resolve(TransformIndex.RESOURCE))).contains("cases.Valid#copy");
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      assertThat(TransformIndex.discover(loader)).singleElement().satisfies(spec -> {
        assertThat(spec.name()).isEqualTo("valid-copy");
        assertThat(spec.engine()).isEqualTo("test");
        assertThat(spec.inputPaths()).extracting(Object::toString).containsExactly("/a/in");
        assertThat(spec.outputPaths()).extracting(Object::toString).containsExactly("/a/out");
      });
    }
  }

  @Test
  void checksBecomeSpecsWithDerivedNamesAndLevels(@TempDir Path dir) throws Exception {
    Compilation compilation = compile(dir, "Checked", """
        public class Checked {
          @Transform
          public void copy(@TableInput("/a/in") TestInput in, @TableOutput("/a/out") @PrimaryKey("id")
              @NotNull({"id", "status"}) @RowCount(min = 1, maxDropPercent = 10) @AllowedValues(column = "status",
              values = {"open", "paid"}) @AllowedValues(column = "kind", values = "a", level = Level.WARN)
              @ValueRange(column = "amount", min = "0") @HasColumn(value = "amount", type = "decimal(10,2)")
              @Satisfies("amount >= 0") TestOutput out) {}
        }""", true);
    assertThat(compilation.errors).isEmpty();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      var spec = ReflectiveModels.transformsOf(Class.forName("cases.Checked", false, loader)).get(0);
      var checks = spec.outputs().get(0).checks();
      assertThat(checks).extracting(dev.transforms.runtime.spi.CheckSpec::name).containsExactly(
          "primary key (id)", "not null (id, status)", "row count (at least 1, at most 10.0% fewer)",
          "status in [open, paid]", "kind in [a]", "0 <= amount", "column amount decimal(10,2)", "amount >= 0");
      assertThat(checks.get(4).level()).isEqualTo(dev.transforms.api.checks.Level.WARN);
      assertThat(checks.get(0).level()).isEqualTo(dev.transforms.api.checks.Level.FAIL);
    }
  }

  @Test
  void incrementalWithoutTransformIsACompileError(@TempDir Path dir) throws IOException {
    Compilation compilation = compile(dir, "IncrementalAlone", """
        public class IncrementalAlone {
          @Incremental public void t(@TableOutput("/a/b") TestOutput out) {}
        }""", true);
    assertThat(compilation.errors).containsExactly("@Incremental on IncrementalAlone.t requires @Transform on the same method");
  }

  private record Compilation(boolean success, List<String> errors) {}

  private static Compilation compile(Path dir, String name, String body, boolean withProcessor) throws IOException {
    Path source = dir.resolve("src/cases/" + name + ".java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, IMPORTS + body);
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
      String classpath = System.getProperty("java.class.path");
      List<String> options = withProcessor
          ? List.of("-classpath", classpath, "-processorpath", classpath, "-processor",
              "dev.transforms.runtime.internal.discovery.TransformProcessor", "-d", dir.toString(), "-parameters")
          : List.of("-classpath", classpath, "-proc:none", "-d", dir.toString(), "-parameters");
      boolean success = compiler.getTask(null, files, diagnostics, options, null,
          files.getJavaFileObjects(new File(source.toString()))).call();
      List<String> errors = diagnostics.getDiagnostics().stream()
          .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
          .map(d -> d.getMessage(Locale.ROOT))
          .toList();
      return new Compilation(success, errors);
    }
  }
}
