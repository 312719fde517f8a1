package dev.transforms.cli.report;

import dev.transforms.api.PublishConflictException;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.secrets.CauseChain;
import dev.transforms.runtime.secrets.SecretMasker;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The last build of each transform, as {@code transforms build} ran it, kept in one small file in the
 * warehouse folder ({@value #FILE_NAME}) for {@code transforms graph}, when that folder exists. The catalog holds only what
 * builds published; this file also knows about failures, durations and the reason a build was full.
 * Building some transforms keeps the others' entries, and the loser of two racing builds of a transform
 * keeps the winner's. The builds of a branch ({@code build --branch NAME}) are kept apart, in a file of
 * their own, so that {@code main}'s last builds stay {@code main}'s.
 */
public final class LastBuilds {

  /** The file's name in the warehouse folder. */
  public static final String FILE_NAME = ".transforms-last-builds.properties";

  /** The lock file beside it, held while a build merges its results in. */
  public static final String LOCK_NAME = ".transforms-last-builds.lock";

  /** The field naming the branch a promoted build ran on. */
  private static final String PROMOTED_FROM = "promoted-from";

  private LastBuilds() {}

  /**
   * The last build of one transform.
   *
   * @param transform the transform
   * @param status {@code SUCCEEDED}, {@code FAILED} or {@code SKIPPED}
   * @param engine the engine
   * @param incremental whether it ran incrementally
   * @param reason why full, incremental or skipped
   * @param started when it started
   * @param duration how long it took
   * @param rowsWritten rows added to its outputs
   * @param error the error's line, empty when it did not fail
   * @param promotedFrom the branch the build ran on, when that branch was promoted since (its builds then
   *     became {@code main}'s); empty for a build of the branch whose record this is
   */
  public record LastBuild(String transform, String status, String engine, boolean incremental, String reason,
      Instant started, Duration duration, long rowsWritten, String error, String promotedFrom) {}

  /**
   * The file in a warehouse folder.
   *
   * @param warehouse the warehouse folder
   * @return the file's path
   */
  public static Path file(Path warehouse) {
    return warehouse.resolve(FILE_NAME);
  }

  /**
   * The file of a branch's builds in a warehouse folder.
   *
   * @param warehouse the warehouse folder
   * @param branch the branch; {@code main}'s is {@link #file(Path)}
   * @return the file's path
   */
  public static Path file(Path warehouse, String branch) {
    return branch == null || branch.equals(org.apache.iceberg.SnapshotRef.MAIN_BRANCH) ? file(warehouse)
        : warehouse.resolve(FILE_NAME.replace(".properties", ".branch-" + branch + ".properties"));
  }

  /**
   * Stores the results of a build, replacing the entries of its transforms.
   *
   * @param warehouse the warehouse folder
   * @param results the results with their times
   * @param masker hides secrets in error messages
   * @throws UncheckedIOException if the file cannot be written
   */
  public static void record(Path warehouse, List<TimedResult> results, SecretMasker masker) {
    record(warehouse, org.apache.iceberg.SnapshotRef.MAIN_BRANCH, results, masker);
  }

  /**
   * Stores the results of a build of a branch, replacing the entries of its transforms on that branch.
   *
   * @param warehouse the warehouse folder
   * @param branch the branch built
   * @param results the results with their times
   * @param masker hides secrets in error messages
   * @throws UncheckedIOException if the file cannot be written
   */
  public static void record(Path warehouse, String branch, List<TimedResult> results, SecretMasker masker) {
    // A configuration whose catalogs all live elsewhere (a cluster's driver) may have no local
    // warehouse folder: none is created for this file.
    // An up-to-date transform did not run: its last build is still the one recorded.
    List<TimedResult> ran = results.stream()
        .filter(r -> r.result().status() != TransformResult.Status.UP_TO_DATE).toList();
    if (ran.isEmpty() || !Files.isDirectory(warehouse)) {
      return;
    }
    underLock(warehouse, file(warehouse, branch), () -> merge(file(warehouse, branch), ran, masker));
  }

  /** What runs under the lock; it may throw what writing a file throws. */
  private interface LockedWork {
    void run() throws IOException;
  }

  /**
   * Runs work under the warehouse's lock. Two builds may end at once, in one JVM or two: each reads, merges
   * and writes under the lock, so that neither loses the other's entries.
   */
  private static void underLock(Path warehouse, Path written, LockedWork work) {
    synchronized (LastBuilds.class) {
      try (FileChannel channel = FileChannel.open(warehouse.resolve(LOCK_NAME), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
        work.run();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write " + written, e);
      }
    }
  }

  /**
   * Ends the record of transforms' builds on a branch that was promoted or dropped: promoted, their
   * entries become {@code main}'s (what {@code main} now holds was built there), each naming the branch it
   * ran on; dropped, they are
   * forgotten. The branch's file goes when no entry is left in it.
   *
   * @param warehouse the warehouse folder
   * @param branch the branch promoted or dropped
   * @param transforms the transforms whose outputs it was promoted or dropped on
   * @param promoted whether it was promoted, else dropped
   * @throws UncheckedIOException if a file cannot be written
   */
  public static void endBranch(Path warehouse, String branch, Collection<String> transforms, boolean promoted) {
    Path branchFile = file(warehouse, branch);
    if (!Files.isRegularFile(branchFile)) {
      return;
    }
    underLock(warehouse, branchFile, () -> {
      Properties onBranch = load(branchFile);
      Properties main = promoted ? load(file(warehouse)) : null;
      for (String key : onBranch.stringPropertyNames()) {
        int dot = key.lastIndexOf('.');
        if (dot > 0 && transforms.contains(key.substring(0, dot))) {
          String value = (String) onBranch.remove(key);
          if (main != null) {
            main.setProperty(key, value);
            main.setProperty(key.substring(0, dot) + "." + PROMOTED_FROM, branch);
          }
        }
      }
      if (main != null) {
        store(file(warehouse), main);
      }
      if (onBranch.isEmpty()) {
        Files.deleteIfExists(branchFile);
      } else {
        store(branchFile, onBranch);
      }
    });
  }

  private static void merge(Path file, List<TimedResult> results, SecretMasker masker) {
    Properties properties = load(file);
    for (TimedResult timed : results) {
      TransformResult r = timed.result();
      String key = r.transform() + ".";
      if (lostARaceToTheRecorded(properties, key, timed)) {
        continue;
      }
      properties.setProperty(key + "status", r.status().name());
      properties.setProperty(key + "engine", r.engine());
      properties.setProperty(key + "incremental", Boolean.toString(r.incremental()));
      properties.setProperty(key + "reason", r.reason());
      properties.setProperty(key + "started", timed.started().toString());
      properties.setProperty(key + "duration-ms", Long.toString(r.duration().toMillis()));
      properties.setProperty(key + "rows-written",
          Long.toString(r.outputs().stream().mapToLong(OutputWrites::rowsAdded).sum()));
      properties.setProperty(key + "error", r.error().map(e -> CauseChain.of(e, masker).summary()).orElse(""));
      properties.remove(key + PROMOTED_FROM);
    }
    store(file, properties);
  }

  private static void store(Path file, Properties properties) {
    try {
      // One temporary file per process and thread: two builds in one JVM must not share it.
      Path temporary = file.resolveSibling(file.getFileName() + "." + ProcessHandle.current().pid() + "-"
          + Thread.currentThread().getId() + ".tmp");
      try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
        properties.store(writer, "the last build of each transform, written by transforms build");
      }
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + file, e);
    }
  }

  /**
   * Whether a result is the loser of two racing builds of one transform and the recorded entry is the
   * winner's: the result failed because another build published first ({@link PublishConflictException}),
   * and the entry succeeded in a build that was still running when this one started. The winner's entry
   * describes the output that is current, so the loser does not replace it.
   */
  private static boolean lostARaceToTheRecorded(Properties properties, String key, TimedResult timed) {
    TransformResult r = timed.result();
    boolean lostRace = r.status() == TransformResult.Status.FAILED
        && r.error().map(LastBuilds::isPublishConflict).orElse(false);
    if (!lostRace || !"SUCCEEDED".equals(properties.getProperty(key + "status"))) {
      return false;
    }
    Instant recordedStart = parseInstant(properties.getProperty(key + "started"));
    Instant recordedEnd = recordedStart.plusMillis(parseLong(properties.getProperty(key + "duration-ms")));
    return !recordedEnd.isBefore(timed.started());
  }

  private static boolean isPublishConflict(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof PublishConflictException) {
        return true;
      }
    }
    return false;
  }

  /**
   * The last build of every transform recorded in a warehouse folder.
   *
   * @param warehouse the warehouse folder
   * @return the builds by transform name; empty when nothing was recorded
   */
  public static Map<String, LastBuild> read(Path warehouse) {
    return read(warehouse, org.apache.iceberg.SnapshotRef.MAIN_BRANCH);
  }

  /**
   * The last build of every transform on a branch recorded in a warehouse folder.
   *
   * @param warehouse the warehouse folder
   * @param branch the branch
   * @return the builds by transform name; empty when nothing was recorded
   */
  public static Map<String, LastBuild> read(Path warehouse, String branch) {
    Properties properties = load(file(warehouse, branch));
    Map<String, LastBuild> builds = new TreeMap<>();
    for (String key : properties.stringPropertyNames()) {
      if (!key.endsWith(".status")) {
        continue;
      }
      String name = key.substring(0, key.length() - ".status".length());
      String p = name + ".";
      builds.put(name, new LastBuild(name, properties.getProperty(key), properties.getProperty(p + "engine", ""),
          Boolean.parseBoolean(properties.getProperty(p + "incremental")), properties.getProperty(p + "reason", ""),
          parseInstant(properties.getProperty(p + "started")),
          Duration.ofMillis(parseLong(properties.getProperty(p + "duration-ms"))),
          parseLong(properties.getProperty(p + "rows-written")), properties.getProperty(p + "error", ""),
          properties.getProperty(p + PROMOTED_FROM, "")));
    }
    return builds;
  }

  private static Properties load(Path file) {
    Properties properties = new Properties();
    if (Files.isRegularFile(file)) {
      try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        properties.load(reader);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + file, e);
      }
    }
    return properties;
  }

  private static Instant parseInstant(String text) {
    try {
      return text == null ? Instant.EPOCH : Instant.parse(text);
    } catch (java.time.format.DateTimeParseException e) {
      return Instant.EPOCH;
    }
  }

  private static long parseLong(String text) {
    try {
      return text == null ? 0 : Long.parseLong(text);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

}
