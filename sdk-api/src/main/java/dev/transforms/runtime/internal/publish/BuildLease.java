package dev.transforms.runtime.internal.publish;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A running build's claim on what it stages: written beside everything the build may leave behind
 * (as a table property next to its staging branch, or as a file next to a staged folder), so that a
 * later build can tell a running build's staging from a dead build's leftovers.
 *
 * <p>A lease names the host, the process id and the process's start time, and an expiry. Another
 * build judges it:
 * <ul>
 *   <li>on the same host, by the process itself: the lease is alive while a process with that id and
 *       that start time runs, so a build killed with {@code kill -9} is known dead at once;
 *   <li>on another host, by the expiry: a running build renews its leases well before they expire, so
 *       a lease past its expiry belongs to a dead build (hosts' clocks must agree within minutes).
 * </ul>
 *
 * @param buildId the build holding the lease
 * @param host the host name of the build's process
 * @param pid the build's process id
 * @param processStart the start time of the build's process, in epoch milliseconds
 * @param expiresAt when the lease lapses unless renewed, in epoch milliseconds
 */
public record BuildLease(String buildId, String host, long pid, long processStart, long expiresAt) {

  /** How long a lease lasts before it must be renewed; builds renew at a third of it. */
  public static final Duration DURATION = Duration.ofMinutes(
      Long.getLong("transforms.lease-minutes", 60L));

  /** Start times of one process read twice can differ by the clock-tick rounding of the OS. */
  private static final long START_TOLERANCE_MILLIS = 1_000;

  private static final String HOST = hostName();

  /**
   * A lease for a build of this process, valid for {@link #DURATION} from now.
   *
   * @param buildId the build
   * @return the lease
   */
  public static BuildLease forThisProcess(String buildId) {
    ProcessHandle self = ProcessHandle.current();
    long start = self.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    return new BuildLease(buildId, HOST, self.pid(), start, System.currentTimeMillis() + DURATION.toMillis());
  }

  /**
   * The same lease, renewed for {@link #DURATION} from now.
   *
   * @return the renewed lease
   */
  public BuildLease renewed() {
    return new BuildLease(buildId, host, pid, processStart, System.currentTimeMillis() + DURATION.toMillis());
  }

  /**
   * Whether the build holding this lease may still be running.
   *
   * @return false only when the build is certainly dead: its process is gone (same host) or the lease
   *     expired (another host)
   */
  public boolean alive() {
    if (HOST.equals(host)) {
      Optional<ProcessHandle> process = ProcessHandle.of(pid);
      if (process.isEmpty() || !process.get().isAlive()) {
        return false;
      }
      Optional<Instant> started = process.get().info().startInstant();
      // A reused process id belongs to a process that started later.
      return started.isEmpty() || processStart == 0
          || Math.abs(started.get().toEpochMilli() - processStart) <= START_TOLERANCE_MILLIS;
    }
    return System.currentTimeMillis() < expiresAt;
  }

  /**
   * Whether the lease should be renewed now: a third of its duration is left or less.
   *
   * @return whether to renew
   */
  public boolean dueForRenewal() {
    return expiresAt - System.currentTimeMillis() < DURATION.toMillis() * 2 / 3;
  }

  /**
   * The lease as one line of {@code key=value} pairs, as stored.
   *
   * @return the encoded lease
   */
  public String encode() {
    return "host=" + host + ";pid=" + pid + ";process-start=" + processStart + ";expires=" + expiresAt;
  }

  /**
   * Reads a stored lease.
   *
   * @param buildId the build the lease was stored for
   * @param encoded the stored text, possibly null
   * @return the lease, or empty when the text is missing or unreadable (an unreadable lease is treated
   *     as no lease: its build is dead)
   */
  public static Optional<BuildLease> decode(String buildId, String encoded) {
    if (encoded == null) {
      return Optional.empty();
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (String part : encoded.split(";")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        fields.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
      }
    }
    try {
      return Optional.of(new BuildLease(buildId, fields.getOrDefault("host", ""),
          Long.parseLong(fields.getOrDefault("pid", "-1")), Long.parseLong(fields.getOrDefault("process-start", "0")),
          Long.parseLong(fields.getOrDefault("expires", "0"))));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static String hostName() {
    // The kernel's own name where there is one: the same in every process of the host, without DNS.
    try {
      String kernel = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname")).trim();
      if (!kernel.isEmpty()) {
        return kernel;
      }
    } catch (java.io.IOException | RuntimeException e) {
      // Not Linux: ask the network layer.
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }

  @Override
  public String toString() {
    return "build " + buildId + " (process " + pid + " on " + host + ")";
  }
}
