package dev.transforms.runtime.maintenance;

import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.api.MaintenanceRefusedException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.publish.BuildLease;
import dev.transforms.runtime.internal.publish.StagingMarks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Maintains tables: compacts data files, rewrites manifests, expires snapshots and removes orphan
 * files, under the safety rules of Iceberg's maintenance guide. {@code transforms maintain} calls it.
 *
 * <p>Every rule is checked before anything changes, so a refusal ({@link MaintenanceRefusedException})
 * leaves the table exactly as it was:
 * <ul>
 *   <li>a table that a running build holds a lease on ({@code transforms.lease.BUILD}) is refused,
 *       naming the build;
 *   <li>an orphan retention under {@link MaintenanceOptions#MIN_ORPHAN_AGE} is refused unless
 *       explicitly allowed;
 *   <li>listed files and metadata that disagree on scheme or authority are refused unless declared
 *       equivalent ({@link OrphanFiles}).
 * </ul>
 * Expiry never removes a branch or a tag, nor a snapshot that only a branch or a tag reaches (the
 * SDK's staging branches {@code transforms_BUILD} included). Before expiring it names the snapshots
 * that downstream incremental transforms recorded as their input state, and keeps them when asked.
 * Orphan files are only listed unless their deletion is asked for.
 *
 * <p>Compaction and manifest rewriting go through a {@link MaintenanceEngine}; the rest uses Iceberg
 * core and is the same for every engine.
 */
public final class TableMaintenance implements AutoCloseable {
  private final Catalogs catalogs;
  private final TableResolver resolver;
  private final MaintenanceEngine engine;

  private TableMaintenance(Catalogs catalogs, MaintenanceEngine engine) {
    this.catalogs = catalogs;
    this.resolver = new TableResolver(catalogs.config());
    this.engine = engine;
  }

  /**
   * Opens the catalogs of a configuration for maintenance; close the result to close them.
   *
   * @param config the configuration, whose mounts resolve paths
   * @param engine the engine that compacts and rewrites manifests (see {@link #findEngine}); it stays
   *     the caller's to start and close
   * @return the maintenance of the configuration's tables
   */
  public static TableMaintenance open(TransformsConfig config, MaintenanceEngine engine) {
    return new TableMaintenance(new Catalogs(config), engine);
  }

  /** Closes the catalogs {@link #open} opened; the engine stays open. */
  @Override
  public void close() {
    catalogs.close();
  }

  /** The catalogs the tables are in, for the policies' listing of them. */
  Catalogs catalogs() {
    return catalogs;
  }

  /**
   * The maintenance engine of a name, or the single-node one when present, else the only one found.
   *
   * @param loader where to look
   * @param name the engine's name ({@value MaintenanceEngine#SINGLE_NODE} or {@value MaintenanceEngine#SPARK}),
   *     or empty to choose
   * @return the engine
   * @throws MaintenanceRefusedException if no engine, or none of that name, is on the classpath
   */
  public static MaintenanceEngine findEngine(ClassLoader loader, Optional<String> name) {
    List<MaintenanceEngine> engines = new ArrayList<>();
    ServiceLoader.load(MaintenanceEngine.class, loader).forEach(engines::add);
    if (name.isPresent()) {
      List<String> found = engines.stream().map(MaintenanceEngine::name).sorted().toList();
      String module = name.get().equals(MaintenanceEngine.SPARK) ? "dev.transforms:sdk-spark"
          : name.get().equals(MaintenanceEngine.SINGLE_NODE) ? "dev.transforms:sdk-single-node" : null;
      return engines.stream().filter(e -> e.name().equals(name.get())).findFirst()
          .orElseThrow(() -> new MaintenanceRefusedException(module == null
              ? "No maintenance engine '" + name.get() + "' (--engine) exists; use " + MaintenanceEngine.SINGLE_NODE
                  + " or " + MaintenanceEngine.SPARK + " (on the classpath: " + String.join(", ", found) + ")"
              : "No maintenance engine '" + name.get() + "' (--engine) on the classpath; add " + module
                  + " (on the classpath: " + (found.isEmpty() ? "none" : String.join(", ", found)) + ")"));
    }
    return engines.stream().filter(e -> e.name().equals(MaintenanceEngine.SINGLE_NODE)).findFirst()
        .or(() -> engines.stream().findFirst())
        .orElseThrow(() -> new MaintenanceRefusedException("Maintenance needs an engine: add "
            + "dev.transforms:sdk-single-node or dev.transforms:sdk-spark to the classpath"));
  }

  /**
   * Loads the table of a path from a catalog that already exists.
   *
   * @param path the dataset path
   * @return the table
   * @throws DatasetNotFoundException if there is no such table, naming the path and identifier
   */
  public Table load(DatasetPath path) {
    ResolvedTable resolved = resolver.resolve(path);
    Optional<Catalog> catalog = catalogs.existingCatalog(resolved.catalog());
    if (catalog.isEmpty()) {
      throw new DatasetNotFoundException("No table at " + path + " (" + resolved.sparkIdentifier() + "): catalog '"
          + resolved.catalog() + "' has no database yet"
          + catalogs.sqliteDatabase(resolved.catalog()).map(db -> " (" + db + ")").orElse("") + "; build first");
    }
    try {
      return catalog.get().loadTable(resolved.identifier());
    } catch (NoSuchTableException e) {
      throw new DatasetNotFoundException("No table at " + path + " (" + resolved.sparkIdentifier() + ")");
    }
  }

  /**
   * Maintains one table.
   *
   * @param path the table's dataset path
   * @param options what to do
   * @param log hears a line per step as it is done
   * @return what was done
   * @throws MaintenanceRefusedException if a safety rule refuses; nothing was changed then
   * @throws DatasetNotFoundException if there is no table at the path
   */
  public MaintenanceReport maintain(DatasetPath path, MaintenanceOptions options, Consumer<String> log) {
    Table table = load(path);
    String name = path + " (" + resolver.resolve(path).sparkIdentifier() + ")";
    List<String> lines = new ArrayList<>();
    Consumer<String> say = line -> {
      lines.add(line);
      log.accept(line);
    };

    // Every rule first: a refusal must leave the table as it was.
    checkNoRunningBuild(table, name, say);
    if (options.removeOrphans()) {
      if (options.orphanOlderThan().compareTo(MaintenanceOptions.MIN_ORPHAN_AGE) < 0 && !options.allowShortRetention()) {
        throw new MaintenanceRefusedException("Refusing to remove orphan files of " + name + " younger than "
            + MaintenanceOptions.MIN_ORPHAN_AGE.toDays() + " days (asked: " + describe(options.orphanOlderThan())
            + "): a file of a write still running looks like an orphan, and deleting it corrupts that write. "
            + "If no write can be running, pass --allow-deleting-files-of-running-writes. Nothing was deleted.");
      }
      OrphanFiles.find(table, name, options.orphanOlderThan(), options.equivalentSchemes(),
          options.equivalentAuthorities());
    }

    if (options.metadataDeleteAfterCommit().isPresent() || options.metadataPreviousVersions().isPresent()) {
      UpdateProperties update = table.updateProperties();
      options.metadataDeleteAfterCommit().ifPresent(on ->
          update.set(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, Boolean.toString(on)));
      options.metadataPreviousVersions().ifPresent(n ->
          update.set(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, Integer.toString(n)));
      update.commit();
      say.accept("metadata: " + TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED + "="
          + table.properties().getOrDefault(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "false") + ", "
          + TableProperties.METADATA_PREVIOUS_VERSIONS_MAX + "="
          + table.properties().getOrDefault(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX,
              Integer.toString(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX_DEFAULT)));
    }

    CompactionResult compaction = CompactionResult.NOTHING;
    if (options.compact()) {
      compaction = engine.compact(table);
      say.accept(compaction.describe() + " (" + engine.name() + ")");
      table.refresh();
    }
    int manifests = 0;
    if (options.rewriteManifests()) {
      manifests = engine.rewriteManifests(table);
      say.accept("rewrite manifests: " + manifests + " manifests replaced");
      table.refresh();
    }
    List<Long> expired = List.of();
    List<Long> kept = List.of();
    if (options.expireSnapshots()) {
      List<List<Long>> outcome = expire(table, path, options, say);
      expired = outcome.get(0);
      kept = outcome.get(1);
      table.refresh();
    }
    List<String> orphans = List.of();
    if (options.removeOrphans()) {
      List<OrphanFiles.Orphan> found = OrphanFiles.find(table, name, options.orphanOlderThan(),
          options.equivalentSchemes(), options.equivalentAuthorities());
      orphans = found.stream().map(OrphanFiles.Orphan::location).toList();
      if (found.isEmpty()) {
        say.accept("orphan files: none older than " + describe(options.orphanOlderThan()));
      }
      for (OrphanFiles.Orphan orphan : found) {
        if (options.deleteOrphans()) {
          table.io().deleteFile(orphan.location());
          say.accept("orphan files: deleted " + orphan.location());
        } else {
          say.accept("orphan files: would delete " + orphan.location() + " (" + orphan.size() + " bytes)");
        }
      }
      if (!found.isEmpty() && !options.deleteOrphans()) {
        say.accept("orphan files: dry run, nothing deleted; pass --delete-orphans to delete "
            + (found.size() == 1 ? "this file" : "these " + found.size() + " files"));
      }
    }
    return new MaintenanceReport(path.toString(), expired, kept, compaction, manifests, orphans,
        options.deleteOrphans(), lines);
  }

  private static void checkNoRunningBuild(Table table, String name, Consumer<String> say) {
    for (Map.Entry<String, String> property : table.properties().entrySet()) {
      if (!property.getKey().startsWith(StagingMarks.LEASE_PREFIX)) {
        continue;
      }
      String build = property.getKey().substring(StagingMarks.LEASE_PREFIX.length());
      Optional<BuildLease> lease = BuildLease.decode(build, property.getValue());
      if (lease.isPresent() && lease.get().alive()) {
        throw new MaintenanceRefusedException("Refusing to maintain " + name + ": build " + build
            + " is writing it (lease " + lease.get() + "); maintain it once that build has ended. Nothing was "
            + "changed.");
      }
      say.accept("note: build " + build + " died while writing this table; its staging branch is left for the "
          + "next build of the table to remove");
    }
  }

  /** Expires snapshots; returns the ids expired and those kept for downstream state. */
  private List<List<Long>> expire(Table table, DatasetPath path, MaintenanceOptions options, Consumer<String> say) {
    if (table.snapshots() == null || !table.snapshots().iterator().hasNext()) {
      say.accept("expire: no snapshot");
      return List.of(List.of(), List.of());
    }
    long cutoff = System.currentTimeMillis() - options.olderThan().toMillis();
    // apply() computes, without committing, the snapshots Iceberg's rules would expire
    Set<Long> expiring = new HashSet<>();
    for (Snapshot snapshot : table.expireSnapshots().expireOlderThan(cutoff).retainLast(options.retainLast())
        .apply()) {
      expiring.add(snapshot.snapshotId());
    }
    Set<Long> protectedIds = onlyOnOtherRefs(table);
    Set<Long> candidates = new TreeSet<>();
    long oldest = Long.MAX_VALUE;
    for (Snapshot snapshot : table.snapshots()) {
      oldest = Math.min(oldest, snapshot.timestampMillis());
      if (expiring.contains(snapshot.snapshotId()) && !protectedIds.contains(snapshot.snapshotId())) {
        candidates.add(snapshot.snapshotId());
      }
    }
    List<Long> kept = new ArrayList<>();
    for (DownstreamStates.Dependent dependent : DownstreamStates.of(catalogs, path)) {
      if (!candidates.contains(dependent.snapshotId())) {
        continue;
      }
      if (options.keepIncrementalState()) {
        candidates.remove(dependent.snapshotId());
        kept.add(dependent.snapshotId());
        say.accept("expire: keeping snapshot " + dependent.snapshotId() + ", the input state of transform "
            + dependent.transform() + " (output " + dependent.output() + ")");
      } else {
        say.accept("expire: snapshot " + dependent.snapshotId() + " is the input state of transform "
            + dependent.transform() + " (output " + dependent.output() + "); if it is incremental, its next build "
            + "rebuilds in full (pass --keep-incremental-state to keep it); a transform that is not builds in full "
            + "anyway");
      }
    }
    if (candidates.isEmpty()) {
      say.accept("expire: nothing older than " + describe(options.olderThan()) + " beyond the last "
          + options.retainLast());
      return List.of(List.of(), kept);
    }
    // Only the ids chosen above: the age is set so that no other snapshot falls under it.
    ExpireSnapshots expire = table.expireSnapshots().expireOlderThan(oldest);
    candidates.forEach(expire::expireSnapshotId);
    expire.commit();
    say.accept("expire: " + dev.transforms.runtime.Counts.of(candidates.size(), "snapshot") + " expired " + candidates);
    return List.of(List.copyOf(candidates), kept);
  }

  /** Snapshots that a branch or tag other than {@code main} reaches and {@code main} does not. */
  private static Set<Long> onlyOnOtherRefs(Table table) {
    Set<Long> onMain = new HashSet<>();
    if (table.currentSnapshot() != null) {
      onMain.addAll(SnapshotUtil.ancestorIds(table.currentSnapshot(), table::snapshot));
    }
    Set<Long> others = new LinkedHashSet<>();
    for (Map.Entry<String, SnapshotRef> ref : table.refs().entrySet()) {
      if (ref.getKey().equals(SnapshotRef.MAIN_BRANCH)) {
        continue;
      }
      Snapshot head = table.snapshot(ref.getValue().snapshotId());
      if (head != null) {
        for (long id : SnapshotUtil.ancestorIds(head, table::snapshot)) {
          if (!onMain.contains(id)) {
            others.add(id);
          }
        }
      }
    }
    return others;
  }

  static String describe(Duration duration) {
    if (duration.toMillis() % Duration.ofDays(1).toMillis() == 0) {
      return duration.toDays() + " days";
    }
    if (duration.toMillis() % Duration.ofHours(1).toMillis() == 0) {
      return duration.toHours() + " hours";
    }
    return duration.toMinutes() + " minutes";
  }
}
