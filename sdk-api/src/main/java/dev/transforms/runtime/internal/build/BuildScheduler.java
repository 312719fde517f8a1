package dev.transforms.runtime.internal.build;

import dev.transforms.runtime.BuildCancellation;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.spi.TransformSpec;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the transforms of a plan, each as soon as every transform upstream of it has published, at most
 * {@link BuildOptions#threads()} at once.
 *
 * <p>One thread, the caller's, coordinates: it starts transforms, hears them finish, and is the only one
 * that calls the listener, so progress lines never interleave. Transforms run on worker threads, each in a
 * <em>lane</em> (0 to threads - 1) that no other transform uses while it runs, so an engine may keep one
 * session per lane. With one thread, transforms run on the caller's thread in plan order, as they always did.
 * Among transforms ready at once, the one with the longest chain of transforms after it starts first (then
 * plan order), so that the critical path is never the one kept waiting.
 *
 * <p>A transform that fails or is skipped skips what is downstream of it; independent transforms go on,
 * unless the options say to fail fast: then nothing more starts, and what runs finishes and publishes or
 * discards as usual. A {@link BuildCancellation} stops starting transforms too; the running ones see it
 * themselves ({@link BuildRunner} discards them instead of publishing). A worker that throws an error the
 * transform could not handle (an {@link OutOfMemoryError}) fails that transform only.
 */
final class BuildScheduler {

  /** Runs one transform; never throws for the transform's own failure, which is in its result. */
  interface Work {
    /**
     * Runs a transform.
     *
     * @param spec the transform
     * @param lane the lane it runs in
     * @return its result
     */
    TransformResult run(TransformSpec spec, int lane);
  }

  private static final AtomicInteger BUILDS = new AtomicInteger();

  private final BuildPlan plan;
  private final BuildOptions options;
  private final BuildCancellation cancellation;
  private final BuildListener listener;
  private final List<TransformSpec> order;
  private final Map<String, Integer> index = new HashMap<>();
  private final Map<String, Integer> waiting = new HashMap<>();
  private final Map<String, Integer> position = new HashMap<>();
  private final Set<String> unsuccessful = new HashSet<>();
  private final TransformResult[] results;
  private final PriorityQueue<String> ready;
  private int started;
  private String stopped;

  private BuildScheduler(BuildPlan plan, BuildOptions options, BuildCancellation cancellation, BuildListener listener) {
    this.plan = plan;
    this.options = options;
    this.cancellation = cancellation;
    this.listener = listener;
    this.order = plan.transforms();
    this.results = new TransformResult[order.size()];
    for (int i = 0; i < order.size(); i++) {
      index.put(order.get(i).name(), i);
    }
    Map<String, Integer> height = heights();
    Comparator<String> byPlan = Comparator.comparing(index::get);
    this.ready = new PriorityQueue<>(options.threads() == 1 ? byPlan
        : Comparator.<String, Integer>comparing(height::get).reversed().thenComparing(byPlan));
    for (TransformSpec spec : order) {
      int upstream = (int) plan.upstreamOf(spec.name()).stream().filter(index::containsKey).count();
      waiting.put(spec.name(), upstream);
      if (upstream == 0) {
        ready.add(spec.name());
      }
    }
  }

  /**
   * Runs a plan.
   *
   * @param plan the transforms, in dependency order
   * @param options how many at once, and whether to fail fast
   * @param cancellation stops the build from starting more
   * @param listener hears progress, from the calling thread only
   * @param work runs one transform
   * @return the results, in plan order
   */
  static List<TransformResult> run(BuildPlan plan, BuildOptions options, BuildCancellation cancellation,
      BuildListener listener, Work work) {
    return new BuildScheduler(plan, options, cancellation, listener).run(work);
  }

  /** How many transforms each one's longest downstream chain holds, itself included. */
  private Map<String, Integer> heights() {
    Map<String, Integer> height = new HashMap<>();
    for (int i = order.size() - 1; i >= 0; i--) {
      String name = order.get(i).name();
      height.put(name, 1 + plan.downstreamOf(name).stream().mapToInt(d -> height.getOrDefault(d, 0)).max().orElse(0));
    }
    return height;
  }

  private List<TransformResult> run(Work work) {
    int threads = Math.min(options.threads(), Math.max(1, order.size()));
    if (threads == 1) {
      runInline(work);
    } else {
      runOnWorkers(work, threads);
    }
    String why = stopped != null ? stopped
        : "not started: the build was cancelled (" + cancellation.reason().orElse("cancelled") + ")";
    for (TransformSpec spec : order) {
      if (results[index.get(spec.name())] == null) {
        Optional<String> failedUpstream = failedUpstream(spec.name());
        start(spec.name());
        finish(skipped(spec, failedUpstream.map(BuildScheduler::upstreamReason).orElse(why)));
      }
    }
    return Arrays.asList(results);
  }

  /** One at a time, on this thread, in plan order. */
  private void runInline(Work work) {
    String next;
    while ((next = nextToStart()) != null) {
      TransformSpec spec = order.get(index.get(next));
      start(next);
      finish(guarded(work, spec, 0));
    }
  }

  private void runOnWorkers(Work work, int threads) {
    int build = BUILDS.incrementAndGet();
    AtomicInteger workers = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
      Thread thread = new Thread(runnable, "transforms-build-" + build + "-" + workers.incrementAndGet());
      thread.setDaemon(false);
      return thread;
    });
    ExecutorCompletionService<Finished> done = new ExecutorCompletionService<>(pool);
    Deque<Integer> lanes = new ArrayDeque<>();
    for (int lane = 0; lane < threads; lane++) {
      lanes.addLast(lane);
    }
    int running = 0;
    try {
      while (true) {
        String next;
        while (running < threads && (next = nextToStart()) != null) {
          TransformSpec spec = order.get(index.get(next));
          int lane = lanes.removeFirst();
          start(next);
          done.submit(() -> new Finished(guarded(work, spec, lane), lane));
          running++;
        }
        if (running == 0) {
          return;
        }
        Finished finished = take(done);
        running--;
        lanes.addFirst(finished.lane());
        finish(finished.result());
      }
    } finally {
      pool.shutdown();
    }
  }

  /** The next transform to start, or null; skips (and records) those whose upstream did not succeed. */
  private String nextToStart() {
    while (!ready.isEmpty() && stopped == null && !cancellation.isCancelled()) {
      String name = ready.poll();
      Optional<String> failedUpstream = failedUpstream(name);
      if (failedUpstream.isEmpty()) {
        return name;
      }
      start(name);
      finish(skipped(order.get(index.get(name)), upstreamReason(failedUpstream.get())));
    }
    return null;
  }

  private Optional<String> failedUpstream(String name) {
    return plan.upstreamOf(name).stream().filter(unsuccessful::contains).findFirst();
  }

  private static String upstreamReason(String upstream) {
    return "skipped: upstream transform " + upstream + " did not succeed";
  }

  /** Waits for the next transform to finish; an interrupt cancels the build but still waits for it. */
  private Finished take(ExecutorCompletionService<Finished> done) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          Future<Finished> future = done.take();
          return future.get();
        } catch (InterruptedException e) {
          interrupted = true;
          cancellation.cancel("the build's thread was interrupted");
        } catch (ExecutionException e) {
          // guarded() catches everything a transform throws: this is a bug of the scheduler itself.
          throw new IllegalStateException("A build worker failed: " + e.getCause(), e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void start(String name) {
    position.put(name, ++started);
    listener.started(name, started, order.size());
  }

  private void finish(TransformResult result) {
    results[index.get(result.transform())] = result;
    listener.finished(result, position.get(result.transform()), order.size());
    if (!result.succeeded()) {
      unsuccessful.add(result.transform());
      if (options.failFast() && stopped == null && result.status() == TransformResult.Status.FAILED) {
        stopped = "not started: --fail-fast after transform " + result.transform() + " failed";
      }
    }
    for (String after : plan.downstreamOf(result.transform())) {
      if (waiting.merge(after, -1, Integer::sum) == 0) {
        ready.add(after);
      }
    }
  }

  /** Runs a transform; an error it could not handle (out of memory, a linkage error) fails it alone. */
  private static TransformResult guarded(Work work, TransformSpec spec, int lane) {
    long start = System.nanoTime();
    try {
      return work.run(spec, lane);
    } catch (OutOfMemoryError e) {
      return failed(spec, start, new OutOfMemoryError("Transform " + spec.name() + " ran out of memory ("
          + e.getMessage() + "). Transforms that run at once share the JVM's memory: give it more (-Xmx), or run "
          + "fewer at once (--threads, build.threads)."));
    } catch (RuntimeException | Error e) {
      return failed(spec, start, e);
    }
  }

  private static TransformResult failed(TransformSpec spec, long start, Throwable error) {
    return new TransformResult(spec.name(), spec.engine(), TransformResult.Status.FAILED, false, "", List.of(),
        Duration.ofNanos(System.nanoTime() - start), Optional.of(error), List.of(), List.of(), List.of());
  }

  private static TransformResult skipped(TransformSpec spec, String reason) {
    return new TransformResult(spec.name(), spec.engine(), TransformResult.Status.SKIPPED, false, reason, List.of(),
        Duration.ZERO, Optional.empty(), List.of(), List.of(), List.of());
  }

  /** A transform that finished in a lane. */
  private record Finished(TransformResult result, int lane) {}
}
