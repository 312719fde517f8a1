package dev.transforms.runtime.maintenance;

import dev.transforms.api.MaintenanceRefusedException;
import dev.transforms.runtime.Locations;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Finds the files under a table's location that nothing of the table references: no snapshot (data,
 * delete, manifest and manifest-list files, statistics) and no tracked metadata file. The location is listed
 * as a folder ({@code LOCATION/}), never as a bare prefix, which an object store would extend to the tables
 * whose location starts with this one's.
 *
 * <p>Files are matched by their path alone, and a listed file whose path matches a referenced one
 * but whose scheme or authority differs is a conflict: comparing whole strings would take it for an
 * orphan and delete a file the table needs. Any conflict refuses the whole search, unless the two
 * schemes or authorities are declared equivalent. A missing scheme or authority on either side
 * matches any.
 */
final class OrphanFiles {

  /**
   * A file that no part of the table references.
   *
   * @param location where it is, as listed
   * @param size its size in bytes
   * @param modifiedMillis when it was last written
   */
  record Orphan(String location, long size, long modifiedMillis) {}

  private OrphanFiles() {}

  /**
   * The orphan files of a table older than an age.
   *
   * @param name how messages name the table
   * @throws MaintenanceRefusedException if the table's file IO cannot list files, or listed files and
   *     metadata disagree on scheme or authority
   */
  static List<Orphan> find(Table table, String name, Duration olderThan, Map<String, String> schemes,
      Map<String, String> authorities) {
    FileIO io = table.io();
    if (!(io instanceof SupportsPrefixOperations lister)) {
      throw new MaintenanceRefusedException("Cannot look for orphan files of " + name + ": its file IO ("
          + io.getClass().getName() + ") cannot list files");
    }
    Map<String, List<URI>> referenced = new HashMap<>();
    for (String location : referencedLocations(table)) {
      URI uri = uri(location);
      referenced.computeIfAbsent(uri.getPath(), p -> new ArrayList<>()).add(uri);
    }
    long cutoff = System.currentTimeMillis() - olderThan.toMillis();
    List<Orphan> orphans = new ArrayList<>();
    List<String> conflicts = new ArrayList<>();
    // the table's folder, not its location as a prefix: an object store lists keys by prefix, so that
    // .../orders would list the files of .../orders_archive too, and delete them as orphans
    for (FileInfo file : lister.listPrefix(Locations.folder(table.location()))) {
      URI listed = uri(file.location());
      List<URI> same = referenced.get(listed.getPath());
      if (same == null) {
        if (file.createdAtMillis() < cutoff) {
          orphans.add(new Orphan(file.location(), file.size(), file.createdAtMillis()));
        }
        continue;
      }
      for (URI known : same) {
        if (!matches(listed.getScheme(), known.getScheme(), schemes)
            || !matches(listed.getAuthority(), known.getAuthority(), authorities)) {
          conflicts.add("listed " + file.location() + ", in the metadata " + known);
          break;
        }
      }
    }
    if (!conflicts.isEmpty()) {
      throw new MaintenanceRefusedException("Refusing to look for orphan files of " + name + ": "
          + conflicts.size() + " listed files and the table's metadata disagree on scheme or authority ("
          + String.join("; ", conflicts.subList(0, Math.min(3, conflicts.size())))
          + (conflicts.size() > 3 ? "; ..." : "") + "). Comparing them as text would delete files the table "
          + "needs. If both name the same storage, declare it: --equal-scheme LISTED=METADATA or "
          + "--equal-authority LISTED=METADATA. Nothing was deleted.");
    }
    orphans.sort(java.util.Comparator.comparing(Orphan::location));
    return orphans;
  }

  private static boolean matches(String listed, String known, Map<String, String> equivalents) {
    if (listed == null || known == null || listed.isEmpty() || known.isEmpty()) {
      return true;
    }
    String a = equivalents.getOrDefault(listed, listed);
    String b = equivalents.getOrDefault(known, known);
    return a.equalsIgnoreCase(b);
  }

  private static URI uri(String location) {
    try {
      return new URI(location.replace(" ", "%20"));
    } catch (URISyntaxException e) {
      return URI.create("file:" + location.replace(" ", "%20"));
    }
  }

  /** Every location the table references from any snapshot or tracked metadata file. */
  static Set<String> referencedLocations(Table table) {
    FileIO io = table.io();
    Set<String> locations = new HashSet<>(ReachableFileUtil.metadataFileLocations(table, true));
    if (table instanceof HasTableOperations operations) {
      locations.add(operations.operations().current().metadataFileLocation());
    }
    locations.add(ReachableFileUtil.versionHintLocation(table));
    locations.addAll(ReachableFileUtil.manifestListLocations(table));
    locations.addAll(ReachableFileUtil.statisticsFilesLocations(table));
    for (PartitionStatisticsFile file : table.partitionStatisticsFiles()) {
      locations.add(file.path());
    }
    Set<String> manifestsSeen = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        if (!manifestsSeen.add(manifest.path())) {
          continue;
        }
        locations.add(manifest.path());
        try {
          if (manifest.content() == ManifestContent.DATA) {
            try (ManifestReader<DataFile> reader = ManifestFiles.read(manifest, io, table.specs())) {
              for (DataFile file : reader) {
                locations.add(file.location());
              }
            }
          } else {
            try (ManifestReader<DeleteFile> reader = ManifestFiles.readDeleteManifest(manifest, io, table.specs())) {
              for (DeleteFile file : reader) {
                locations.add(file.location());
              }
            }
          }
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException("Cannot read manifest " + manifest.path(), e);
        }
      }
    }
    return locations;
  }
}
