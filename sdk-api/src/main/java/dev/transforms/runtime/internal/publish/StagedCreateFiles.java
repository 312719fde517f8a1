package dev.transforms.runtime.internal.publish;

import dev.transforms.runtime.spi.CrashPoints;
import dev.transforms.runtime.Locations;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * The files a build writes for a table it creates, before the table exists in the catalog: found by
 * their names, which start with {@code transforms-BUILD-}, under the table's location, and claimed by
 * the build's lease file, {@code metadata/transforms-BUILD-create.lease}.
 *
 * <p>Nothing in the catalog points at them until the build publishes, so a build that dies leaves
 * them behind with its lease. The next build that starts creating the table lists the location, and
 * removes the files of every build whose lease says it is dead, provided the table still does not
 * exist (once it does, they may be its files). A build removes its lease only after its create commit
 * succeeded or its files are gone, so a listing that finds files without a lease leaves them alone. A
 * file system that cannot list (no {@link SupportsPrefixOperations}) keeps such leftovers until
 * orphan-file maintenance removes them.
 */
final class StagedCreateFiles {

  private static final String NAME_PREFIX = "transforms-";
  private static final String LEASE_SUFFIX = "create.lease";

  private StagedCreateFiles() {}

  /**
   * The prefix of the names of a build's files.
   *
   * @param buildId the build
   * @return {@code transforms-BUILD-}
   */
  static String prefix(String buildId) {
    return NAME_PREFIX + buildId + "-";
  }

  /**
   * Where a build's lease on a new table lies.
   *
   * @param location the table's location
   * @param buildId the build
   * @return the lease file's location
   */
  static String leaseLocation(String location, String buildId) {
    return trim(location) + "/metadata/" + prefix(buildId) + LEASE_SUFFIX;
  }

  /**
   * Writes (or renews) a build's lease on a new table.
   *
   * @param io the table's file IO
   * @param location the table's location
   * @param lease the lease
   */
  static void writeLease(FileIO io, String location, BuildLease lease) {
    try (OutputStream out = io.newOutputFile(leaseLocation(location, lease.buildId())).createOrOverwrite()) {
      out.write(lease.encode().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the lease of build " + lease.buildId() + " under " + location
          + ": " + e.getMessage(), e);
    }
  }

  /**
   * Removes a build's lease on a new table; missing is fine.
   *
   * @param io the table's file IO
   * @param location the table's location
   * @param buildId the build
   */
  static void deleteLease(FileIO io, String location, String buildId) {
    try {
      io.deleteFile(leaseLocation(location, buildId));
    } catch (RuntimeException e) {
      // Missing already; a lease left behind only makes the next creator check a dead build.
    }
  }

  /**
   * Deletes every file a build wrote for a table it did not publish: the files its metadata names, and
   * (where the file system can list) every file under the location with the build's prefix, which
   * catches files of writes that never committed. The lease goes last.
   *
   * @param io the table's file IO
   * @param metadata the build's in-memory metadata of the table
   * @param buildId the build
   */
  static void deleteAll(FileIO io, TableMetadata metadata, String buildId) {
    Set<String> files = new LinkedHashSet<>(referenced(io, metadata));
    List<String> listed = listed(io, metadata.location()).getOrDefault(buildId, List.of());
    Optional<String> lease = leaseOf(buildId, listed);
    listed.stream().filter(file -> lease.isEmpty() || !file.equals(lease.get())).forEach(files::add);
    delete(io, files);
    deleteLease(io, metadata.location(), buildId);
    removeEmptyFolders(metadata.location());
  }

  /**
   * Removes what builds that died left under the location of a table that does not exist.
   *
   * @param io the file IO of the catalog
   * @param location the table's location
   * @param ownBuild the build asking, whose files are left alone
   * @param tableExists whether the table exists now; asked after the leases are judged
   * @return one note per build whose files were removed
   */
  static List<String> removeDead(FileIO io, String location, String ownBuild, BooleanSupplier tableExists) {
    Map<String, List<String>> byBuild = listed(io, location);
    List<String> dead = new ArrayList<>();
    for (Map.Entry<String, List<String>> build : byBuild.entrySet()) {
      Optional<String> lease = leaseOf(build.getKey(), build.getValue());
      if (build.getKey().equals(ownBuild) || lease.isEmpty()) {
        continue;
      }
      Optional<BuildLease> held = BuildLease.decode(build.getKey(), read(io, lease.get()));
      if (held.isEmpty() || !held.get().alive()) {
        dead.add(build.getKey());
      }
    }
    if (dead.isEmpty() || tableExists.getAsBoolean()) {
      return List.of();
    }
    List<String> notes = new ArrayList<>();
    for (String build : dead) {
      List<String> files = new ArrayList<>(byBuild.get(build));
      Optional<String> lease = leaseOf(build, files);
      lease.ifPresent(files::remove);
      delete(io, files);
      CrashPoints.reached("recover.staged");
      lease.ifPresent(file -> delete(io, List.of(file)));
      removeEmptyFolders(location);
      notes.add("removed the " + files.size() + " file" + (files.size() == 1 ? "" : "s") + " dead build " + build
          + " wrote for the table it was creating at " + location);
    }
    return notes;
  }

  /**
   * Deletes the metadata files of a create commit that lost to another build's, known by the table
   * uuid they carry (the catalog wrote them under names of its own).
   *
   * @param io the table's file IO
   * @param location the table's location
   * @param uuid the uuid of the table this build meant to create
   */
  static void deleteLostCreate(FileIO io, String location, String uuid) {
    if (!(io instanceof SupportsPrefixOperations listing)) {
      return;
    }
    List<String> lost = new ArrayList<>();
    try {
      for (FileInfo file : listing.listPrefix(trim(location) + "/metadata")) {
        if (file.location().endsWith(".metadata.json") && uuid.equals(uuidOf(io, file.location()))) {
          lost.add(file.location());
        }
      }
    } catch (RuntimeException e) {
      return;
    }
    delete(io, lost);
  }

  /** The lease file among a build's files, as the listing names it. */
  private static Optional<String> leaseOf(String buildId, List<String> files) {
    String name = "/" + prefix(buildId) + LEASE_SUFFIX;
    return files.stream().filter(file -> file.endsWith(name)).findFirst();
  }

  private static String uuidOf(FileIO io, String location) {
    try {
      return TableMetadataParser.read(io, location).uuid();
    } catch (RuntimeException e) {
      return null; // being written, or not a table's metadata: not ours to judge
    }
  }

  /** The files a build's metadata names: manifest lists, manifests, data and delete files, statistics. */
  private static Set<String> referenced(FileIO io, TableMetadata metadata) {
    Set<String> files = new LinkedHashSet<>();
    for (Snapshot snapshot : metadata.snapshots()) {
      if (snapshot.manifestListLocation() != null) {
        files.add(snapshot.manifestListLocation());
      }
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        files.add(manifest.path());
        try (CloseableIterable<? extends ContentFile<?>> entries = manifest.content() == ManifestContent.DATA
            ? ManifestFiles.read(manifest, io, metadata.specsById())
            : ManifestFiles.readDeleteManifest(manifest, io, metadata.specsById())) {
          entries.forEach(file -> files.add(file.location()));
        } catch (IOException | RuntimeException e) {
          // A manifest that cannot be read: the listing, where there is one, still finds its files.
        }
      }
    }
    metadata.statisticsFiles().forEach(file -> files.add(file.path()));
    return files;
  }

  /** The files under a location whose names carry a build's prefix, by build. */
  private static Map<String, List<String>> listed(FileIO io, String location) {
    Map<String, List<String>> byBuild = new LinkedHashMap<>();
    if (!(io instanceof SupportsPrefixOperations listing)) {
      return byBuild;
    }
    try {
      // the table's folder: an object store lists by key prefix, and .../orders_archive is not .../orders
      for (FileInfo file : listing.listPrefix(Locations.folder(location))) {
        String name = file.location().substring(file.location().lastIndexOf('/') + 1);
        int end = name.indexOf('-', NAME_PREFIX.length());
        if (name.startsWith(NAME_PREFIX) && end > NAME_PREFIX.length()) {
          byBuild.computeIfAbsent(name.substring(NAME_PREFIX.length(), end), b -> new ArrayList<>())
              .add(file.location());
        }
      }
    } catch (RuntimeException e) {
      // Nothing there yet (a new table's folder does not exist), or the store refused the listing.
    }
    return byBuild;
  }

  private static String read(FileIO io, String location) {
    try (InputStream in = io.newInputFile(location).newStream()) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      in.transferTo(bytes);
      return bytes.toString(StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static void delete(FileIO io, Iterable<String> files) {
    for (String file : files) {
      try {
        io.deleteFile(file);
      } catch (RuntimeException e) {
        // Gone already, or not deletable: orphan-file maintenance removes what is left.
      }
    }
  }

  /**
   * Removes the folders left empty under a local table location (and the location itself, when empty):
   * a local file system keeps a file's folders after the file is deleted, and a table that never
   * appeared should leave no folder behind. Object stores have no folders to remove.
   */
  /**
   * The folders above a new table's location on the local file system that do not exist yet, deepest
   * first ({@code warehouse/Shop/raw} and {@code warehouse/Shop} for {@code warehouse/Shop/raw/orders} in a
   * warehouse without {@code Shop}): writing the table's first file creates them, and a run that discards
   * the table removes them again with {@link #removeIfEmpty}.
   *
   * @param location the table's location
   * @return the missing folders, deepest first; none for a location that is not local
   */
  static List<java.nio.file.Path> missingParents(String location) {
    Optional<java.nio.file.Path> local = Locations.localPath(trim(location));
    List<java.nio.file.Path> missing = new ArrayList<>();
    if (local.isEmpty()) {
      return missing;
    }
    for (java.nio.file.Path folder = local.get().toAbsolutePath().getParent();
        folder != null && !java.nio.file.Files.exists(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        folder = folder.getParent()) {
      missing.add(folder);
    }
    return missing;
  }

  /**
   * Removes folders a run created, deepest first, each only if empty: the first that holds anything (a
   * table another writer put there meanwhile) stays, with the folders above it.
   *
   * @param folders the folders, deepest first
   */
  static void removeIfEmpty(List<java.nio.file.Path> folders) {
    for (java.nio.file.Path folder : folders) {
      try {
        java.nio.file.Files.deleteIfExists(folder);
      } catch (IOException e) {
        // Not empty (another writer's files), or not removable: it stays, and so do the folders above it.
        return;
      }
    }
  }

  private static void removeEmptyFolders(String location) {
    Optional<java.nio.file.Path> local = Locations.localPath(trim(location));
    if (local.isEmpty() || !java.nio.file.Files.isDirectory(local.get())) {
      return;
    }
    java.nio.file.Path root = local.get();
    try (java.util.stream.Stream<java.nio.file.Path> walk = java.nio.file.Files.walk(root)) {
      walk.sorted(java.util.Comparator.reverseOrder()).filter(java.nio.file.Files::isDirectory).forEach(folder -> {
        try {
          java.nio.file.Files.deleteIfExists(folder);
        } catch (IOException e) {
          // Not empty (another build's files, or the table's): it stays.
        }
      });
    } catch (IOException | UncheckedIOException e) {
      // A folder that cannot be walked stays; it holds nothing of a table.
    }
  }

  private static String trim(String location) {
    return location.replaceAll("/+$", "");
  }
}
