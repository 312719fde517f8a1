package dev.transforms.runtime.internal.build;

import static org.assertj.core.api.Assertions.assertThat;
import dev.transforms.api.IncrementalTransformContext;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildCancellation;
import dev.transforms.runtime.BuildCancelledException;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import dev.transforms.testengine.IdTables;
import dev.transforms.testengine.TestInput;
import dev.transforms.testengine.TestOutput;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds that run transforms at once, through the real runner, catalog and publish protocol: every
 * transform of a random pipeline reads what its upstream published (its output then holds exactly the
 * union the pipeline implies), a cancelled build discards what runs and leaves outputs as they were, and
 * two builds of overlapping selections at once leave every output whole.
 */
public class ParallelBuildTest {

  @TempDir Path dir;

  /** Writes the union of its inputs' ids and one id of its own (100 + its number), after a random pause. */
  public static class Union {
    public void one(IncrementalTransformContext ctx, TestInput a, TestOutput out) {
      write(ctx, out, a);
    }

    public void two(IncrementalTransformContext ctx, TestInput a, TestInput b, TestOutput out) {
      write(ctx, out, a, b);
    }

    public void three(IncrementalTransformContext ctx, TestInput a, TestInput b, TestInput c, TestOutput out) {
      write(ctx, out, a, b, c);
    }

    private static void write(IncrementalTransformContext ctx, TestOutput out, TestInput... inputs) {
      TreeSet<Long> ids = new TreeSet<>();
      ids.add(100L + Long.parseLong(ctx.transformName().substring(1)));
      for (TestInput input : inputs) {
        ids.addAll(input.ids());
      }
      pause(ThreadLocalRandom.current().nextInt(4));
      out.append(ids.stream().mapToLong(Long::longValue).toArray());
    }
  }

  private static List<Method> unionMethods() throws NoSuchMethodException {
    Class<?> in = TestInput.class;
    Class<?> out = TestOutput.class;
    Class<?> ctx = IncrementalTransformContext.class;
    return List.of(Union.class.getMethod("one", ctx, in, out), Union.class.getMethod("two", ctx, in, in, out),
        Union.class.getMethod("three", ctx, in, in, in, out));
  }

  private static Catalog seed(BuildRunner runner) {
    Catalog catalog = runner.catalogs().catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    for (int s = 0; s < RandomPlans.SOURCES; s++) {
      IdTables.append(catalog.createTable(TableIdentifier.of("src", "s" + s), IdTables.SCHEMA), null, Map.of(),
          10L * s + 1, 10L * s + 2);
    }
    return catalog;
  }

  /** The ids each output must hold: the union of its inputs and its own id, in plan order. */
  private static Map<String, TreeSet<Long>> expected(BuildPlan plan) {
    Map<String, TreeSet<Long>> ids = new TreeMap<>();
    for (int s = 0; s < RandomPlans.SOURCES; s++) {
      ids.put("/src/s" + s, new TreeSet<>(List.of(10L * s + 1, 10L * s + 2)));
    }
    for (TransformSpec spec : plan.transforms()) {
      TreeSet<Long> union = new TreeSet<>(List.of(100L + Long.parseLong(spec.name().substring(1))));
      for (ParameterSpec input : spec.inputs()) {
        union.addAll(ids.get(input.requirePath().toString()));
      }
      ids.put("/out/" + spec.name(), union);
    }
    return ids;
  }

  @Test
  void everyTransformOfARandomPipelineReadsWhatItsUpstreamPublished() throws Exception {
    Random random = new Random(42);
    List<Method> methods = unionMethods();
    for (int round = 0; round < 12; round++) {
      BuildPlan plan = RandomPlans.of(random, 4 + random.nextInt(8), methods, "test");
      try (BuildRunner runner = new BuildRunner(TransformsConfig.embedded(dir.resolve("round-" + round)))) {
        Catalog catalog = seed(runner);
        BuildReport report = runner.run(plan, BuildListener.NONE, BuildOptions.NONE.withThreads(3));
        assertThat(report.succeeded()).as(report.format()).isTrue();
        Map<String, TreeSet<Long>> expected = expected(plan);
        for (TransformSpec spec : plan.transforms()) {
          Table table = catalog.loadTable(TableIdentifier.of("out", spec.name()));
          assertThat(new TreeSet<>(IdTables.ids(table, null))).as("round " + round + ", " + spec.name())
              .isEqualTo(expected.get("/out/" + spec.name()));
          assertThat(table.refs()).containsOnlyKeys("main");
        }
      }
    }
  }

  /** Waits, in its method, until the build is cancelled, having written a row. */
  public static class WaitsForCancel {
    static volatile CountDownLatch running = new CountDownLatch(1);
    static volatile BuildCancellation cancellation;
    /** What the method throws once cancelled, as Spark's stopped pools do on Ctrl-C; nothing when null. */
    static volatile RuntimeException thrownOnCancel;

    @Transform(name = "waits")
    public void waits(@TableInput("/src/s0") TestInput in, @TableOutput("/out/waits") TestOutput out) {
      out.append(1);
      running.countDown();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!cancellation.isCancelled() && System.nanoTime() < deadline) {
        pause(2);
      }
      if (thrownOnCancel != null) {
        throw thrownOnCancel;
      }
      out.append(2);
    }

    @Transform(name = "after-waits")
    public void after(@TableInput("/out/waits") TestInput in, @TableOutput("/out/after") TestOutput out) {
      out.append(3);
    }
  }

  @Test
  void aCancelledBuildDiscardsWhatRunsAndStartsNothingMore() throws Exception {
    try (BuildRunner runner = new BuildRunner(TransformsConfig.embedded(dir.resolve("cancel")))) {
      Catalog catalog = seed(runner);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("out"));
      Table existing = catalog.createTable(TableIdentifier.of("out", "waits"), IdTables.SCHEMA);
      IdTables.append(existing, null, Map.of(), 42);
      long before = catalog.loadTable(TableIdentifier.of("out", "waits")).currentSnapshot().snapshotId();
      BuildCancellation cancellation = new BuildCancellation();
      WaitsForCancel.cancellation = cancellation;
      WaitsForCancel.running = new CountDownLatch(1);
      WaitsForCancel.thrownOnCancel = null;
      BuildPlan plan = BuildPlan.of(ReflectiveModels.transformsOf(WaitsForCancel.class));
      ExecutorService caller = Executors.newSingleThreadExecutor();
      try {
        Future<BuildReport> build = caller.submit(() -> runner.run(plan, BuildListener.NONE,
            BuildOptions.forcing(plan).withThreads(2), cancellation));
        assertThat(WaitsForCancel.running.await(10, TimeUnit.SECONDS)).isTrue();
        cancellation.cancel("stop, says the test");
        BuildReport report = build.get(30, TimeUnit.SECONDS);
        TransformResult waits = report.result("waits").orElseThrow();
        assertThat(waits.status()).isEqualTo(TransformResult.Status.FAILED);
        assertThat(waits.error().orElseThrow()).hasMessage("Transform waits ran but was not published; its writes are "
            + "discarded: the build was cancelled (stop, says the test)");
        assertThat(report.result("after-waits").orElseThrow().status()).isEqualTo(TransformResult.Status.SKIPPED);
      } finally {
        caller.shutdownNow();
      }
      Table after = catalog.loadTable(TableIdentifier.of("out", "waits"));
      assertThat(after.currentSnapshot().snapshotId()).isEqualTo(before);
      assertThat(IdTables.ids(after, null)).containsExactly(42L);
      assertThat(after.refs()).containsOnlyKeys("main");
      assertThat(catalog.tableExists(TableIdentifier.of("out", "after"))).isFalse();
    }
  }

  @Test
  void aTransformThatFailsBecauseItsBuildWasCancelledReportsTheCancellation() throws Exception {
    try (BuildRunner runner = new BuildRunner(TransformsConfig.embedded(dir.resolve("cancel-fails")))) {
      seed(runner);
      BuildCancellation cancellation = new BuildCancellation();
      WaitsForCancel.cancellation = cancellation;
      WaitsForCancel.running = new CountDownLatch(1);
      WaitsForCancel.thrownOnCancel = new IllegalStateException("Shutdown in progress");
      BuildPlan plan = BuildPlan.of(ReflectiveModels.transformsOf(WaitsForCancel.class)).select(List.of("waits"));
      ExecutorService caller = Executors.newSingleThreadExecutor();
      try {
        Future<BuildReport> build = caller.submit(() -> runner.run(plan, BuildListener.NONE,
            BuildOptions.forcing(plan), cancellation));
        assertThat(WaitsForCancel.running.await(10, TimeUnit.SECONDS)).isTrue();
        cancellation.cancel("the process was asked to stop (Ctrl-C or SIGTERM)");
        Throwable error = build.get(30, TimeUnit.SECONDS).result("waits").orElseThrow().error().orElseThrow();
        assertThat(error).isInstanceOf(BuildCancelledException.class).hasNoCause()
            .hasMessage("Transform waits was stopped and its writes discarded: the build was cancelled (the process "
                + "was asked to stop (Ctrl-C or SIGTERM))");
        assertThat(error.getSuppressed()).singleElement().satisfies(
            e -> assertThat(e).hasMessageEndingWith("IllegalStateException: Shutdown in progress"));
      } finally {
        WaitsForCancel.thrownOnCancel = null;
        caller.shutdownNow();
      }
    }
  }

  @Test
  void twoBuildsOfOverlappingSelectionsAtOnceLeaveEveryOutputWhole() throws Exception {
    Random random = new Random(7);
    List<Method> methods = unionMethods();
    BuildPlan all = RandomPlans.of(random, 10, methods, "test");
    List<String> names = all.transforms().stream().map(TransformSpec::name).toList();
    BuildPlan first = all.select(names.subList(0, 7));
    BuildPlan second = all.select(names.subList(3, 10));
    Path warehouse = dir.resolve("overlap");
    try (BuildRunner seeding = new BuildRunner(TransformsConfig.embedded(warehouse))) {
      seed(seeding);
    }
    ExecutorService callers = Executors.newFixedThreadPool(2);
    try (BuildRunner one = new BuildRunner(TransformsConfig.embedded(warehouse));
        BuildRunner two = new BuildRunner(TransformsConfig.embedded(warehouse))) {
      CountDownLatch go = new CountDownLatch(1);
      Future<BuildReport> a = callers.submit(() -> {
        go.await();
        return one.run(first, BuildListener.NONE, BuildOptions.NONE.withThreads(2));
      });
      Future<BuildReport> b = callers.submit(() -> {
        go.await();
        return two.run(second, BuildListener.NONE, BuildOptions.NONE.withThreads(2));
      });
      go.countDown();
      List<BuildReport> reports = List.of(a.get(60, TimeUnit.SECONDS), b.get(60, TimeUnit.SECONDS));
      for (BuildReport report : reports) {
        for (TransformResult result : report.results()) {
          // A transform both builds ran at once is published by one; the other is told it lost the race, and
          // what is downstream of it in that build is skipped.
          if (result.status() == TransformResult.Status.FAILED) {
            assertThat(result.error().orElseThrow().toString()).as(report.format())
                .containsAnyOf("PublishConflictException", "moved while", "created elsewhere", "another build");
          }
        }
      }
      // A third build finishes what the race left; then every output holds exactly what the pipeline implies.
      BuildReport last = one.run(all, BuildListener.NONE, BuildOptions.NONE.withThreads(2));
      assertThat(last.succeeded()).as(last.format()).isTrue();
      Catalog catalog = one.catalogs().catalog("local");
      Map<String, TreeSet<Long>> expected = expected(all);
      for (String name : names) {
        Table table = catalog.loadTable(TableIdentifier.of("out", name));
        assertThat(new TreeSet<>(IdTables.ids(table, null))).as(name).isEqualTo(expected.get("/out/" + name));
        assertThat(table.refs()).as(name).containsOnlyKeys("main");
      }
    } finally {
      callers.shutdownNow();
    }
  }

  private static void pause(int millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
