package dev.transforms.runtime.internal.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.BuildCancellation;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.spi.TransformSpec;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The scheduler alone, with work that only records when it ran: over 200 random pipelines with random
 * durations and failures, no transform starts before every transform upstream of it finished (for a
 * transform of the runner, finished means published), no more run at once than asked, what is
 * downstream of a failure is skipped and never started, independent transforms still run, one thread
 * keeps plan order, and the listener hears everything on the calling thread, one call at a time.
 */
public class BuildSchedulerTest {

  private static final List<Method> ANY;

  static {
    try {
      Method method = Object.class.getMethod("toString");
      ANY = List.of(method, method, method);
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** What the work saw of one transform: ticks of a shared clock when it started and ended. */
  private record Span(long start, long end) {}

  private static TransformResult result(TransformSpec spec, TransformResult.Status status) {
    return new TransformResult(spec.name(), spec.engine(), status, false, "", List.of(), Duration.ZERO,
        status == TransformResult.Status.FAILED ? Optional.of(new IllegalStateException("planned failure"))
            : Optional.empty(), List.of(), List.of(), List.of());
  }

  @Test
  void overRandomPlansNothingStartsBeforeItsUpstreamFinishedAndFailuresSkipOnlyTheirDownstream() {
    Random random = new Random(20261203L);
    int overlapping = 0;
    for (int round = 0; round < 200; round++) {
      BuildPlan plan = RandomPlans.of(random, 1 + random.nextInt(14), ANY, "test");
      int threads = 1 + random.nextInt(4);
      Set<String> failing = new HashSet<>();
      plan.transforms().forEach(t -> {
        if (random.nextInt(8) == 0) {
          failing.add(t.name());
        }
      });
      Map<String, Integer> delays = new ConcurrentHashMap<>();
      plan.transforms().forEach(t -> delays.put(t.name(), random.nextInt(3)));
      AtomicLong clock = new AtomicLong();
      AtomicInteger running = new AtomicInteger();
      AtomicInteger mostAtOnce = new AtomicInteger();
      Map<String, Span> spans = new ConcurrentHashMap<>();
      List<String> callThreads = Collections.synchronizedList(new ArrayList<>());
      Thread caller = Thread.currentThread();
      AtomicInteger inListener = new AtomicInteger();
      BuildListener listener = new BuildListener() {
        @Override public void started(String transform, int position, int total) {
          check();
        }

        @Override public void finished(TransformResult result, int position, int total) {
          check();
        }

        private void check() {
          assertThat(inListener.incrementAndGet()).as("listener calls at once").isEqualTo(1);
          callThreads.add(Thread.currentThread() == caller ? "caller" : Thread.currentThread().getName());
          inListener.decrementAndGet();
        }
      };

      List<TransformResult> results = BuildScheduler.run(plan, BuildOptions.NONE.withThreads(threads),
          new BuildCancellation(), listener, (spec, lane) -> {
            long start = clock.incrementAndGet();
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            sleep(delays.get(spec.name()));
            running.decrementAndGet();
            spans.put(spec.name(), new Span(start, clock.incrementAndGet()));
            return result(spec, failing.contains(spec.name()) ? TransformResult.Status.FAILED
                : TransformResult.Status.SUCCEEDED);
          });

      String where = "round " + round + ", " + threads + " threads, failing " + failing;
      assertThat(results).extracting(TransformResult::transform).as(where)
          .containsExactlyElementsOf(plan.transforms().stream().map(TransformSpec::name).toList());
      assertThat(mostAtOnce.get()).as(where).isLessThanOrEqualTo(threads);
      assertThat(callThreads).as(where).containsOnly("caller").hasSize(2 * plan.transforms().size());
      Set<String> unsuccessful = new HashSet<>();
      for (TransformResult result : results) {
        String name = result.transform();
        boolean upstreamFailed = plan.upstreamOf(name).stream().anyMatch(unsuccessful::contains);
        if (upstreamFailed) {
          assertThat(result.status()).as(where + ": " + name).isEqualTo(TransformResult.Status.SKIPPED);
          assertThat(spans).as(where + ": " + name + " never started").doesNotContainKey(name);
        } else {
          assertThat(spans).as(where + ": " + name + " ran").containsKey(name);
          for (String upstream : plan.upstreamOf(name)) {
            assertThat(spans.get(name).start()).as(where + ": " + name + " started after " + upstream + " ended")
                .isGreaterThan(spans.get(upstream).end());
          }
        }
        if (!result.succeeded()) {
          unsuccessful.add(name);
        }
      }
      if (threads == 1) {
        List<String> byStart = new ArrayList<>(spans.keySet());
        byStart.sort((a, b) -> Long.compare(spans.get(a).start(), spans.get(b).start()));
        assertThat(byStart).as(where + ": one thread keeps plan order").containsExactlyElementsOf(
            plan.transforms().stream().map(TransformSpec::name).filter(spans::containsKey).toList());
      }
      if (mostAtOnce.get() > 1) {
        overlapping++;
      }
    }
    assertThat(overlapping).as("builds in which transforms ran at once").isGreaterThan(50);
  }

  @Test
  void failFastStartsNothingAfterAFailureAndLetsRunningTransformsFinish() throws Exception {
    BuildPlan plan = BuildPlan.of(List.of(
        RandomPlans.spec("a", List.of("/src/s0"), ANY.get(0), "test"),
        RandomPlans.spec("b", List.of("/out/a"), ANY.get(0), "test"),
        RandomPlans.spec("c", List.of("/src/s1"), ANY.get(0), "test"),
        RandomPlans.spec("d", List.of("/src/s2"), ANY.get(0), "test")));
    CountDownLatch aFailed = new CountDownLatch(1);
    List<String> ran = Collections.synchronizedList(new ArrayList<>());
    List<TransformResult> results = BuildScheduler.run(plan, BuildOptions.NONE.withThreads(2).withFailFast(true),
        new BuildCancellation(), BuildListener.NONE, (spec, lane) -> {
          ran.add(spec.name());
          if (spec.name().equals("a")) {
            aFailed.countDown();
            return result(spec, TransformResult.Status.FAILED);
          }
          // c starts beside a and is still running when a fails: it finishes.
          await(aFailed);
          sleep(20);
          return result(spec, TransformResult.Status.SUCCEEDED);
        });
    Map<String, TransformResult> byName = new java.util.TreeMap<>();
    results.forEach(r -> byName.put(r.transform(), r));
    assertThat(ran).containsExactlyInAnyOrder("a", "c");
    assertThat(byName.get("c").status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(byName.get("b").reason()).isEqualTo("skipped: upstream transform a did not succeed");
    assertThat(byName.get("d").status()).isEqualTo(TransformResult.Status.SKIPPED);
    assertThat(byName.get("d").reason()).isEqualTo("not started: --fail-fast after transform a failed");
  }

  @Test
  void withoutFailFastAFailureSkipsOnlyWhatIsDownstreamOfIt() {
    BuildPlan plan = BuildPlan.of(List.of(
        RandomPlans.spec("a", List.of("/src/s0"), ANY.get(0), "test"),
        RandomPlans.spec("b", List.of("/out/a"), ANY.get(0), "test"),
        RandomPlans.spec("c", List.of("/out/b", "/src/s1"), ANY.get(1), "test"),
        RandomPlans.spec("d", List.of("/src/s2"), ANY.get(0), "test")));
    List<TransformResult> results = BuildScheduler.run(plan, BuildOptions.NONE.withThreads(3),
        new BuildCancellation(), BuildListener.NONE, (spec, lane) -> result(spec,
            spec.name().equals("a") ? TransformResult.Status.FAILED : TransformResult.Status.SUCCEEDED));
    assertThat(results).extracting(r -> r.transform() + "=" + r.status())
        .containsExactly("a=FAILED", "b=SKIPPED", "c=SKIPPED", "d=SUCCEEDED");
    assertThat(results.get(2).reason()).isEqualTo("skipped: upstream transform b did not succeed");
  }

  @Test
  void aCancelledBuildStartsNothingMoreAndWaitsForWhatRuns() {
    BuildPlan plan = BuildPlan.of(List.of(
        RandomPlans.spec("a", List.of("/src/s0"), ANY.get(0), "test"),
        RandomPlans.spec("b", List.of("/out/a"), ANY.get(0), "test"),
        RandomPlans.spec("c", List.of("/src/s1"), ANY.get(0), "test")));
    BuildCancellation cancellation = new BuildCancellation();
    List<String> ran = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch cRuns = new CountDownLatch(1);
    List<TransformResult> results = BuildScheduler.run(plan, BuildOptions.NONE.withThreads(2), cancellation,
        BuildListener.NONE, (spec, lane) -> {
          ran.add(spec.name());
          if (spec.name().equals("a")) {
            await(cRuns);  // cancel while c runs: it must be waited for, not dropped
            cancellation.cancel("test says stop");
          } else {
            cRuns.countDown();
            sleep(30);
          }
          return result(spec, TransformResult.Status.SUCCEEDED);
        });
    assertThat(ran).containsExactlyInAnyOrder("a", "c");
    assertThat(results).extracting(r -> r.transform() + "=" + r.status())
        .containsExactly("a=SUCCEEDED", "b=SKIPPED", "c=SUCCEEDED");
    assertThat(results.get(1).reason()).isEqualTo("not started: the build was cancelled (test says stop)");
  }

  @Test
  void anOutOfMemoryErrorFailsItsTransformOnly() {
    BuildPlan plan = BuildPlan.of(List.of(
        RandomPlans.spec("big", List.of("/src/s0"), ANY.get(0), "test"),
        RandomPlans.spec("small", List.of("/src/s1"), ANY.get(0), "test")));
    List<TransformResult> results = BuildScheduler.run(plan, BuildOptions.NONE.withThreads(2),
        new BuildCancellation(), BuildListener.NONE, (spec, lane) -> {
          if (spec.name().equals("big")) {
            throw new OutOfMemoryError("Java heap space");
          }
          return result(spec, TransformResult.Status.SUCCEEDED);
        });
    assertThat(results.get(0).status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(results.get(0).error().orElseThrow()).hasMessageStartingWith("Transform big ran out of memory (Java heap "
        + "space)").hasMessageContaining("--threads");
    assertThat(results.get(1).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
  }

  @Test
  void lanesAreNeverSharedByTransformsRunningAtOnceAndTheCriticalPathStartsFirst() {
    // One long chain (x0 -> x1 -> x2) and two single transforms: with two threads, x0 is among the first two.
    BuildPlan plan = BuildPlan.of(List.of(
        RandomPlans.spec("a-single", List.of("/src/s0"), ANY.get(0), "test"),
        RandomPlans.spec("b-single", List.of("/src/s1"), ANY.get(0), "test"),
        RandomPlans.spec("x0", List.of("/src/s2"), ANY.get(0), "test"),
        RandomPlans.spec("x1", List.of("/out/x0"), ANY.get(0), "test"),
        RandomPlans.spec("x2", List.of("/out/x1"), ANY.get(0), "test")));
    assertThat(plan.criticalPath()).containsExactly("x0", "x1", "x2");
    assertThat(plan.levels()).containsExactly(List.of("a-single", "b-single", "x0"), List.of("x1"), List.of("x2"));
    Map<Integer, String> lanes = new ConcurrentHashMap<>();
    List<String> started = Collections.synchronizedList(new ArrayList<>());
    BuildScheduler.run(plan, BuildOptions.NONE.withThreads(2), new BuildCancellation(), BuildListener.NONE,
        (spec, lane) -> {
          started.add(spec.name());
          assertThat(lanes.putIfAbsent(lane, spec.name())).as("lane " + lane + " is free").isNull();
          sleep(5);
          lanes.remove(lane);
          return result(spec, TransformResult.Status.SUCCEEDED);
        });
    // x0 takes one of the two threads first; which of the two started threads records first is a race.
    assertThat(started).hasSize(5);
    assertThat(started.subList(0, 2)).contains("x0");
  }

  private static void sleep(int millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
