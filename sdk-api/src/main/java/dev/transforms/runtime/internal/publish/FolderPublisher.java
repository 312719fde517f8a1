package dev.transforms.runtime.internal.publish;

import dev.transforms.runtime.spi.CrashPoints;
import dev.transforms.runtime.spi.StagedFolder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Publishes a file output (a folder of files, {@code @Output}) all at once, whatever process dies
 * where.
 *
 * <p>The dataset's folder {@code .../NAME} is a symbolic link to one version of the data, kept beside
 * it in {@code .../.NAME.versions/BUILD}. A build writes its files to its own version folder, with its
 * {@link BuildLease lease} in {@code BUILD.lease} next to it, and publishes by replacing the link in one
 * atomic rename: a reader that opens {@code NAME} sees the old files or the new ones, never a mix and
 * never nothing. The old version is deleted afterwards. The first publish over a plain folder (written
 * by an earlier version of the SDK, or by hand) moves that folder into the versions first: the one
 * moment the dataset is briefly absent, and a crash there is undone by the next build.
 *
 * <p>Every build that stages the output first recovers it: it puts back a folder a crash left moved
 * aside, and deletes the version folders, leases and links of dead builds, never the version the
 * dataset points to nor what a running build is writing.
 */
public final class FolderPublisher implements StagedFolder {

  private static final String LEASE_SUFFIX = ".lease";
  private static final String LEGACY_PREFIX = "previous-";

  private final Path location;
  private final Path versions;
  private final String buildId;
  private final Path staging;
  private final Path lease;
  private final List<String> recovered;

  private FolderPublisher(Path location, String buildId, List<String> recovered) {
    this.location = location;
    this.versions = location.resolveSibling("." + location.getFileName() + ".versions");
    this.buildId = buildId;
    this.staging = versions.resolve(buildId);
    this.lease = versions.resolve(buildId + LEASE_SUFFIX);
    this.recovered = recovered;
  }

  /**
   * Recovers a folder output from dead builds and claims a version folder for this build.
   *
   * @param location the dataset's folder, as readers name it
   * @param buildId this build
   * @return the publisher; write the files to {@link #stagingFolder()}
   */
  public static FolderPublisher stage(Path location, String buildId) {
    FolderPublisher publisher = new FolderPublisher(location, buildId, new ArrayList<>());
    try {
      publisher.recover();
      Files.createDirectories(publisher.versions);
      Files.writeString(publisher.lease, BuildLease.forThisProcess(buildId).encode(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot stage file output " + location + ": " + e.getMessage(), e);
    }
    return publisher;
  }

  /**
   * The folder this build writes its files to.
   *
   * @return the version folder of this build (it need not exist yet)
   */
  @Override
  public Path stagingFolder() {
    return staging;
  }

  /**
   * What recovery did before staging, one line per action.
   *
   * @return the notes
   */
  @Override
  public List<String> recovered() {
    return List.copyOf(recovered);
  }

  /**
   * Makes the staged files the dataset's content in one atomic rename of the link, then deletes the
   * previous version. Does nothing if the build wrote no files.
   */
  @Override
  public void publish() {
    if (!Files.isDirectory(staging)) {
      discard();
      return;
    }
    try {
      Path link = location.resolveSibling("." + location.getFileName() + ".link-" + buildId);
      Files.deleteIfExists(link);
      Files.createSymbolicLink(link, location.getParent().relativize(staging));
      CrashPoints.reached("files.link");
      Optional<Path> previous = target();
      if (Files.exists(location, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(location)) {
        // A plain folder: move it into the versions, so the link can replace it.
        Path moved = versions.resolve(LEGACY_PREFIX + buildId);
        Files.move(location, moved, StandardCopyOption.ATOMIC_MOVE);
        previous = Optional.of(moved);
        CrashPoints.reached("files.moved-aside");
      }
      Files.move(link, location, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      CrashPoints.reached("files.swapped");
      if (previous.isPresent() && !previous.get().equals(staging)) {
        deleteRecursively(previous.get());
      }
      Files.deleteIfExists(lease);
      CrashPoints.reached("files.cleaned");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot publish the files of " + location + ": " + e.getMessage(), e);
    }
  }

  /** Deletes this build's version folder and lease. Safe to call more than once. */
  @Override
  public void discard() {
    try {
      Optional<Path> current = target();
      if (current.isEmpty() || !current.get().equals(staging)) {
        deleteRecursively(staging);
      }
      Files.deleteIfExists(lease);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot remove the staged files of " + location + ": " + e.getMessage(), e);
    }
  }

  /** The version folder the dataset's link points to, if it is a link. */
  private Optional<Path> target() throws IOException {
    if (!Files.isSymbolicLink(location)) {
      return Optional.empty();
    }
    return Optional.of(location.resolveSibling(Files.readSymbolicLink(location)).normalize());
  }

  private void recover() throws IOException {
    Path parent = location.getParent();
    if (!Files.isDirectory(versions)) {
      recoverEarlierLayout(parent);
      return;
    }
    if (!Files.exists(location, LinkOption.NOFOLLOW_LINKS)) {
      // A crash right after a plain folder was moved aside: put it back.
      try (Stream<Path> entries = Files.list(versions)) {
        Optional<Path> aside = entries.filter(p -> p.getFileName().toString().startsWith(LEGACY_PREFIX)).findFirst();
        if (aside.isPresent()) {
          Files.move(aside.get(), location, StandardCopyOption.ATOMIC_MOVE);
          recovered.add("put back folder " + location + ", moved aside by a build that died while publishing it");
        }
      }
    }
    Optional<Path> current = target();
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(versions)) {
      stream.forEach(entries::add);
    }
    for (Path entry : entries) {
      String name = entry.getFileName().toString();
      String build = name.endsWith(LEASE_SUFFIX) ? name.substring(0, name.length() - LEASE_SUFFIX.length())
          : name.startsWith(LEGACY_PREFIX) ? name.substring(LEGACY_PREFIX.length()) : name;
      if (build.equals(buildId) || current.map(entry.normalize()::equals).orElse(false)) {
        continue;
      }
      Path leaseFile = versions.resolve(build + LEASE_SUFFIX);
      Optional<BuildLease> holder = Files.exists(leaseFile)
          ? BuildLease.decode(build, Files.readString(leaseFile, StandardCharsets.UTF_8)) : Optional.empty();
      if (holder.isPresent() && holder.get().alive()) {
        continue;
      }
      deleteRecursively(entry);
      if (!name.endsWith(LEASE_SUFFIX)) {
        recovered.add("removed " + entry + ", left by dead build " + build);
      }
    }
    try (Stream<Path> siblings = Files.list(parent)) {
      for (Path link : siblings.filter(p -> p.getFileName().toString().startsWith("." + location.getFileName()
          + ".link-")).toList()) {
        String build = link.getFileName().toString().substring(("." + location.getFileName() + ".link-").length());
        if (!build.equals(buildId) && !Files.exists(versions.resolve(build + LEASE_SUFFIX))) {
          Files.deleteIfExists(link);
        }
      }
    }
  }

  /** The folders of the SDK's earlier layout ({@code NAME.staging-B}, {@code NAME.replaced-B}) left by a crash. */
  private void recoverEarlierLayout(Path parent) throws IOException {
    if (parent == null || !Files.isDirectory(parent)) {
      return;
    }
    String name = location.getFileName().toString();
    List<Path> leftovers;
    try (Stream<Path> siblings = Files.list(parent)) {
      leftovers = siblings.filter(p -> p.getFileName().toString().startsWith(name + ".staging-")
          || p.getFileName().toString().startsWith(name + ".replaced-")).sorted().toList();
    }
    for (Path leftover : leftovers) {
      if (leftover.getFileName().toString().startsWith(name + ".replaced-") && !Files.exists(location)) {
        Files.move(leftover, location, StandardCopyOption.ATOMIC_MOVE);
        recovered.add("put back folder " + location + " from " + leftover.getFileName());
      } else {
        deleteRecursively(leftover);
        recovered.add("removed " + leftover + ", left by a build that died");
      }
    }
  }

  private static void deleteRecursively(Path path) throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    if (Files.isSymbolicLink(path) || !Files.isDirectory(path)) {
      Files.deleteIfExists(path);
      return;
    }
    try (Stream<Path> files = Files.walk(path)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    }
  }
}
