package dev.transforms.benchmarks;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The peaks of one call: the Java heap in use and the process's resident memory. Arrow's buffers live off
 * the heap, so the heap alone says little about an Arrow read; the resident peak counts both.
 *
 * <p>Heap: the largest of a sample every {@value #SAMPLE_MILLIS} ms and of the heap in use just before
 * each collection (from the collectors' notifications), which is where the heap peaks. Resident memory:
 * Linux's peak resident size of the process (VmHWM), reset before the call through
 * {@code /proc/self/clear_refs}; where that cannot be reset, the largest sampled resident size (VmRSS).
 * Not thread-safe: one call is measured at a time.
 */
final class MemoryPeaks implements AutoCloseable {

  static final int SAMPLE_MILLIS = 5;

  private final AtomicLong heapPeak = new AtomicLong();
  private final AtomicLong rssPeakKb = new AtomicLong();
  private final double rssStartKb;
  private final boolean rssReset;
  private final Thread sampler;
  private final NotificationListener beforeGc;
  private volatile boolean running = true;

  private MemoryPeaks() {
    rssStartKb = statusKb("VmRSS:").orElse(0);
    rssReset = resetPeakRss();
    beforeGc = this::collected;
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(beforeGc, null, null);
      }
    }
    sampler = new Thread(() -> {
      while (running) {
        sample();
        try {
          Thread.sleep(SAMPLE_MILLIS);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "memory peaks");
    sampler.setDaemon(true);
    sample();
    sampler.start();
  }

  /**
   * Starts measuring.
   *
   * @return the probe; {@link #close} it after the call, then read the peaks
   */
  static MemoryPeaks start() {
    return new MemoryPeaks();
  }

  private void sample() {
    heapPeak.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
    if (!rssReset) {
      statusKb("VmRSS:").ifPresent(kb -> rssPeakKb.accumulateAndGet((long) kb, Math::max));
    }
  }

  private void collected(Notification notification, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
      return;
    }
    var info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    long before = 0;
    List<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(pool -> pool.getType() == MemoryType.HEAP).map(pool -> pool.getName()).toList();
    for (var pool : info.getGcInfo().getMemoryUsageBeforeGc().entrySet()) {
      if (heapPools.contains(pool.getKey())) {
        before += ((MemoryUsage) pool.getValue()).getUsed();
      }
    }
    heapPeak.accumulateAndGet(before, Math::max);
  }

  @Override
  public void close() {
    running = false;
    sampler.interrupt();
    try {
      sampler.join();
      Thread.sleep(20); // the collectors' notifications come on their own thread, a little after
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sample();
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        try {
          emitter.removeNotificationListener(beforeGc);
        } catch (javax.management.ListenerNotFoundException ignored) {
          // not added
        }
      }
    }
    if (rssReset) {
      statusKb("VmHWM:").ifPresent(kb -> rssPeakKb.set((long) kb));
    }
  }

  /** The largest heap in use during the call, in MB. */
  double heapPeakMb() {
    return heapPeak.get() / 1048576.0;
  }

  /** The resident size of the process when the call started, in MB; 0 where it cannot be read. */
  double rssStartMb() {
    return rssStartKb / 1024.0;
  }

  /** The largest resident size of the process during the call, in MB; 0 where it cannot be read. */
  double rssPeakMb() {
    return rssPeakKb.get() / 1024.0;
  }

  private static boolean resetPeakRss() {
    try {
      Files.writeString(Path.of("/proc/self/clear_refs"), "5");
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static OptionalDouble statusKb(String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith(field)) {
          return OptionalDouble.of(Double.parseDouble(line.substring(field.length()).trim().split("\\s+")[0]));
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return OptionalDouble.empty();
  }
}
