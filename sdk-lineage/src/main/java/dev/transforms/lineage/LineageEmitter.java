package dev.transforms.lineage;

import io.openlineage.client.OpenLineage;
import io.openlineage.client.transports.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Sends one build's OpenLineage events on threads of its own, so that a slow, failing or absent receiver
 * never holds up the build: {@link #emit} only queues (a bounded queue; an event that finds it full is
 * dropped), and {@link #close} waits for what is queued at most until a deadline, then gives up on the
 * rest. There are two senders, each sending its events in the order they were queued: one for the
 * build's own run, one for the transforms' runs (and their Spark jobs'), so that the last events of a
 * build, a transform's end and the build's, go out at once; a transport that is not safe to use from two
 * threads at once (a file) gets one sender. The first failure of the build (a transport error, a full queue, the deadline) is logged once, as
 * a warning that names the transport's target but no setting's value; later ones are counted only.
 *
 * <p>Thread-safe: the build's coordinator, its workers and Spark's listener thread emit at once. The
 * transport is shared with other builds (see {@link LineageTransports#shared}) and never closed here.
 */
final class LineageEmitter {


  /** Events a build may have waiting at once; more are dropped. */
  static final int CAPACITY = 10_000;

  private static final OpenLineage.RunEvent STOP = new OpenLineage(java.net.URI.create("urn:stop"))
      .newRunEventBuilder().build();

  private final Transport transport;
  private final String buildId;
  private final String target;
  private final Consumer<String> warnings;
  private final List<BlockingQueue<OpenLineage.RunEvent>> queues = new ArrayList<>();
  private final List<Thread> senders = new ArrayList<>();
  private final AtomicBoolean warned = new AtomicBoolean();
  private final Object progress = new Object();
  private volatile boolean abandoned;
  private long queued;
  private long handled;

  LineageEmitter(Transport transport, String buildId, String target, Consumer<String> warnings) {
    this.transport = transport;
    this.buildId = buildId;
    this.target = target;
    this.warnings = warnings;
    int lanes = transport.getClass().getSimpleName().startsWith("File") ? 1 : 2;
    for (int lane = 0; lane < lanes; lane++) {
      BlockingQueue<OpenLineage.RunEvent> queue = new ArrayBlockingQueue<>(CAPACITY);
      Thread sender = new Thread(() -> send(queue), "transforms-lineage-" + buildId + "-" + lane);
      sender.setDaemon(true);
      queues.add(queue);
      senders.add(sender);
      sender.start();
    }
  }

  /**
   * Queues an event of a transform's run (or of its Spark jobs); never blocks.
   *
   * @param event the event
   */
  void emit(OpenLineage.RunEvent event) {
    emit(event, queues.size() - 1);
  }

  /**
   * Queues an event of the build's own run; never blocks.
   *
   * @param event the event
   */
  void emitBuild(OpenLineage.RunEvent event) {
    emit(event, 0);
  }

  private void emit(OpenLineage.RunEvent event, int lane) {
    if (abandoned) {
      return;
    }
    synchronized (progress) {
      if (!queues.get(lane).offer(event)) {
        warnOnce("the queue of " + CAPACITY + " events waiting to be sent is full (the receiver is slower than "
            + "the build); events are dropped");
        return;
      }
      queued++;
    }
  }

  private void send(BlockingQueue<OpenLineage.RunEvent> queue) {
    while (true) {
      OpenLineage.RunEvent event;
      try {
        event = queue.take();
      } catch (InterruptedException e) {
        break;
      }
      if (event == STOP || abandoned) {
        return;
      }
      try {
        transport.emit(event);
      } catch (Exception | LinkageError e) {
        warnOnce(firstLine(e));
      }
      synchronized (progress) {
        handled++;
        progress.notifyAll();
      }
    }
  }

  /**
   * Waits until every queued event was sent, at most until the deadline; then stops the sender. Events
   * still waiting at the deadline are dropped, with the build's one warning.
   *
   * @param timeoutNanos how long to wait at most
   */
  void close(long timeoutNanos) {
    long deadline = System.nanoTime() + timeoutNanos;
    long pending;
    synchronized (progress) {
      while (handled < queued && System.nanoTime() < deadline) {
        try {
          progress.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      pending = queued - handled;
    }
    if (pending > 0) {
      abandoned = true;
      warnOnce(pending + " event" + (pending == 1 ? " was" : "s were") + " not sent within the timeout of "
          + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms (openlineage.timeout)");
      queues.forEach(BlockingQueue::clear);
      // A sender stuck in a hanging request ends with the request's own timeout; nobody waits for it.
      senders.forEach(Thread::interrupt);
    }
    queues.forEach(queue -> queue.offer(STOP));
  }

  private void warnOnce(String why) {
    if (warned.compareAndSet(false, true)) {
      warnings.accept("OpenLineage: the events of build " + buildId + " could not all be sent (" + target + "): "
          + why + ". The build is not affected; its lineage is incomplete. Later failures of this build are "
          + "not logged.");
    }
  }

  private static String firstLine(Throwable e) {
    StringBuilder out = new StringBuilder();
    Throwable cause = e;
    int depth = 0;
    while (cause != null && depth++ < 4) {
      String message = cause.getMessage() == null ? "" : cause.getMessage().lines().findFirst().orElse("");
      if (out.length() > 0) {
        out.append(" <- ");
      }
      out.append(cause.getClass().getSimpleName()).append(message.isEmpty() ? "" : ": " + message);
      cause = cause.getCause() == cause ? null : cause.getCause();
    }
    String line = out.toString();
    return line.length() > 400 ? line.substring(0, 400) + "..." : line;
  }
}
