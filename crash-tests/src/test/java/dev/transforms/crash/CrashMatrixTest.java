package dev.transforms.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.Transform;
import dev.transforms.crash.CrashTransforms.SingleFailing;
import dev.transforms.crash.CrashTransforms.SingleFull;
import dev.transforms.crash.CrashTransforms.SingleIncremental;
import dev.transforms.crash.CrashTransforms.SingleReshape;
import dev.transforms.crash.CrashTransforms.SparkFiles;
import dev.transforms.crash.CrashTransforms.SparkFull;
import dev.transforms.crash.CrashTransforms.SparkIncremental;
import dev.transforms.crash.CrashTransforms.SparkReshape;
import dev.transforms.crash.CrashTransforms.TwoOutputs;
import dev.transforms.crash.CrashTransforms.TwoOutputsReshape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills builds with SIGKILL at every step of the publish protocol, for each kind of build, and checks
 * after each kill that readers saw the old result or the new one (rows and columns), never a part, and
 * that one more build leaves exactly the expected rows and columns, no branch, lease, shape mark,
 * staged folder or file of a dead build, and builds incrementally on without losing a row.
 *
 * <p>Each cell is one child JVM ({@link CrashChild}) killed where the point is reached. Two cells run
 * at a time. The matrix is printed and written to {@code crash-matrix.md} in the build directory.
 *
 * <p>System property {@value #CELLS} chooses the rows: {@code all} (the default); {@code spark}, the
 * cases whose killed transform runs on Spark; or {@code spark-run}, those cases each killed at one point
 * only, the first its build reaches while the Spark engine writes ({@code run.written}, else the case's first
 * point), which the {@code spark-4.1} profile runs on the other Spark line. The other points are steps of
 * {@code sdk-api}'s publish protocol, the same jar on both lines. When {@value #EXPECTED_SPARK} is set (the POM sets it to the Spark version of the active line), the
 * test first checks that the Spark on its classpath, which the children inherit, is that version.
 */
public class CrashMatrixTest {

  /** The system property that chooses the rows: {@code all} or {@code spark}. */
  static final String CELLS = "crash.cells";
  /** The system property naming the Spark version the build put on the classpath. */
  static final String EXPECTED_SPARK = "crash.expectedSpark";

  /** The cases the {@value #CELLS} property selects. */
  static List<CrashCase> selectedCases() {
    return selectedCases(System.getProperty(CELLS, "all"));
  }

  /** The cases a value of {@value #CELLS} selects. */
  static List<CrashCase> selectedCases(String cells) {
    return switch (cells) {
      case "all" -> cases();
      case "spark" -> cases().stream().filter(CrashCase::spark).toList();
      case "spark-run" -> cases().stream().filter(CrashCase::spark)
          .map(c -> c.points(List.of(c.points().contains("run.written") ? "run.written" : c.points().get(0))))
          .toList();
      default -> throw new IllegalArgumentException(CELLS + " must be all, spark or spark-run, not " + cells);
    };
  }

  /** Every case, with the protocol points that apply to it. */
  static List<CrashCase> cases() {
    List<CrashCase> cases = new ArrayList<>();
    cases.add(CrashCase.of("spark, first build, incremental transform", SparkIncremental.class)
        .points(List.of("create.staged", "run.written", "publish.output")));
    cases.add(CrashCase.of("spark, existing output, full", SparkFull.class).setup(SparkFull.class)
        .points(List.of("stage.branch", "run.written", "publish.output")));
    cases.add(CrashCase.of("spark, existing output, schema change", SparkReshape.class).setup(SparkFull.class)
        .points(List.of("stage.shape", "run.written", "publish.output")));
    cases.add(CrashCase.of("spark, incremental", SparkIncremental.class).setup(SparkIncremental.class)
        .points(List.of("run.written", "run.returned", "publish.output")));
    cases.add(CrashCase.of("single node, first build, incremental transform", SingleIncremental.class)
        .points(List.of("create.staged", "run.written", "run.returned", "publish.output")));
    cases.add(CrashCase.of("single node, existing output, full", SingleFull.class).setup(SingleFull.class)
        .points(List.of("stage.branch", "run.written", "run.returned", "publish.output")));
    cases.add(CrashCase.of("single node, existing output, schema change", SingleReshape.class).setup(SingleFull.class)
        .points(List.of("stage.shape", "run.written", "run.returned", "publish.output")));
    cases.add(CrashCase.of("single node, incremental", SingleIncremental.class).setup(SingleIncremental.class)
        .points(List.of("stage.branch", "run.written", "publish.output")));
    // Branch builds: main stays as the setup left it at every point; the branch is all or nothing.
    cases.add(CrashCase.of("spark, incremental, on a branch", SparkIncremental.class).setup(SparkIncremental.class)
        .onBranch("dev").points(List.of("run.written", "publish.output")));
    cases.add(CrashCase.of("single node, incremental, on a branch", SingleIncremental.class)
        .setup(SingleIncremental.class).onBranch("dev").points(List.of("stage.branch", "publish.output")));
    cases.add(CrashCase.of("two outputs, first build", TwoOutputs.class)
        .points(List.of("create.staged#2", "publish.output#1", "publish.output#2")));
    cases.add(CrashCase.of("two outputs, existing", TwoOutputs.class).setup(TwoOutputs.class)
        .points(List.of("stage.branch#2", "run.returned", "publish.output#1", "publish.output#2")));
    cases.add(CrashCase.of("file output, first build", SparkFiles.class)
        .points(List.of("files.link", "files.swapped", "files.cleaned")));
    cases.add(CrashCase.of("file output, existing", SparkFiles.class).setup(SparkFiles.class)
        .points(List.of("files.written", "files.swapped")));
    // Turning a plain folder into a link cannot be one rename: for an instant the folder is moved aside.
    cases.add(CrashCase.of("file output over a plain folder", SparkFiles.class).overPlainFolder()
        .points(List.of("files.moved-aside")));
    cases.add(CrashCase.of("failing transform, existing output", SingleFailing.class).setup(SingleFull.class)
        .after(SingleFull.class).thatFails().points(List.of("discard.branch", "discard.expired")));
    cases.add(CrashCase.of("failing transform, first build", SingleFailing.class).after(SingleFull.class)
        .thatFails().points(List.of("discard.created")));
    cases.add(CrashCase.of("recovery of a dead build's branch", SingleFull.class).setup(SingleFull.class)
        .killedBefore(SingleFull.class, "run.written").points(List.of("recover.branch", "recover.expired")));
    cases.add(CrashCase.of("recovery of a dead build's schema change", SingleReshape.class).setup(SingleFull.class)
        .killedBefore(SingleReshape.class, "run.written").points(List.of("recover.branch", "recover.expired")));
    cases.add(CrashCase.of("recovery of a dead first build", SingleFull.class)
        .killedBefore(SingleFull.class, "run.written").points(List.of("recover.staged")));
    cases.add(CrashCase.of("recovery of a half publication", TwoOutputs.class).setup(TwoOutputs.class)
        .killedBefore(TwoOutputs.class, "publish.output#1").points(List.of("recover.finish")));
    cases.add(CrashCase.of("recovery of a half publication with a schema change", TwoOutputsReshape.class)
        .setup(TwoOutputs.class).killedBefore(TwoOutputsReshape.class, "publish.output#1")
        .points(List.of("recover.finish")));
    return cases;
  }

  @TempDir Path dir;

  /**
   * The Spark rows are told apart by the killed transform's name; this checks the name against what the
   * transform's method takes, so that a Spark case never drops out of {@code crash.cells=spark}.
   */
  @Test
  void theSparkRowsAreTheCasesWhoseTransformTakesSparkHandles() {
    for (CrashCase crashCase : cases()) {
      boolean sparkHandles = Arrays.stream(crashCase.crashed().getMethods())
          .filter(m -> m.isAnnotationPresent(Transform.class))
          .flatMap(m -> Arrays.stream(m.getParameterTypes()))
          .anyMatch(type -> type.getPackageName().equals("dev.transforms.spark"));
      assertThat(crashCase.spark()).as(crashCase.name()).isEqualTo(sparkHandles);
    }
    assertThat(cases().stream().filter(CrashCase::spark)).hasSizeGreaterThanOrEqualTo(5);
    // the second line's selection: every Spark case, once each, where the engine writes if it has that point
    List<CrashCase> onTheOtherLine = selectedCases("spark-run");
    assertThat(onTheOtherLine).extracting(CrashCase::name)
        .isEqualTo(selectedCases("spark").stream().map(CrashCase::name).toList());
    for (CrashCase crashCase : onTheOtherLine) {
      CrashCase every = cases().stream().filter(c -> c.name().equals(crashCase.name())).findFirst().orElseThrow();
      assertThat(crashCase.points()).as(crashCase.name())
          .containsExactly(every.points().contains("run.written") ? "run.written" : every.points().get(0));
    }
  }

  @Test
  void everyKillLeavesTheOldOrTheNewResultAndTheNextBuildCleansUp() throws Exception {
    String expectedSpark = System.getProperty(EXPECTED_SPARK);
    if (expectedSpark != null) {
      assertThat(org.apache.spark.package$.MODULE$.SPARK_VERSION()).as("the Spark version the cells run on")
          .isEqualTo(expectedSpark);
    }
    List<CrashCase> cases = selectedCases();
    assertThat(cases).as("the cases %s=%s selects", CELLS, System.getProperty(CELLS, "all")).isNotEmpty();
    Map<CrashCase, Map<String, Future<String>>> cells = new LinkedHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      int n = 0;
      for (CrashCase crashCase : cases) {
        Map<String, Future<String>> row = new LinkedHashMap<>();
        for (String point : crashCase.points()) {
          Path warehouse = dir.resolve("cell-" + (++n));
          row.put(point, pool.submit(() -> new CrashCell(crashCase, point, warehouse).run()));
        }
        cells.put(crashCase, row);
      }
      Map<CrashCase, Map<String, String>> results = new LinkedHashMap<>();
      List<String> failures = new ArrayList<>();
      for (Map.Entry<CrashCase, Map<String, Future<String>>> row : cells.entrySet()) {
        Map<String, String> outcomes = new LinkedHashMap<>();
        for (Map.Entry<String, Future<String>> cell : row.getValue().entrySet()) {
          String outcome;
          try {
            outcome = cell.getValue().get();
          } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            outcome = "FAILED";
            failures.add(row.getKey().name() + " @ " + cell.getKey() + ": " + cause);
          }
          outcomes.put(cell.getKey(), outcome);
        }
        results.put(row.getKey(), outcomes);
      }
      String matrix = CrashCell.matrix(results);
      System.out.println(matrix);
      Path report = Path.of(System.getProperty("crash.buildDirectory", "target"), "crash-matrix.md");
      Files.createDirectories(report.getParent());
      Files.writeString(report, matrix);
      assertThat(failures).as(matrix).isEmpty();
    } finally {
      pool.shutdownNow();
    }
  }
}
