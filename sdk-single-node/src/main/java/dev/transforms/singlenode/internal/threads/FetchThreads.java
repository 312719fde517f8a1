package dev.transforms.singlenode.internal.threads;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The daemon threads that fetch byte ranges of files elsewhere (object storage, HDFS) while the engine
 * decodes what came before. A request spends its time waiting for the store, not on a core, so there
 * are more of these than cores: {@value #THREADS} requests in flight at most, the rest queued in the order
 * asked. Threads end after a minute without work.
 */
public final class FetchThreads {

  /** How many requests are in flight at most, in this JVM. */
  public static final int THREADS = 16;

  private static final AtomicInteger COUNT = new AtomicInteger();

  private static final ExecutorService POOL = pool();

  private FetchThreads() {}

  private static ExecutorService pool() {
    ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), task -> {
          Thread thread = new Thread(task, "transforms-fetch-" + COUNT.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /**
   * Starts a fetch.
   *
   * @param fetch the request, run on a fetch thread
   * @return its result, or its failure
   */
  public static <T> CompletableFuture<T> start(Supplier<T> fetch) {
    return CompletableFuture.supplyAsync(fetch, POOL);
  }
}
