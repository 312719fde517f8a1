package dev.transforms.cli;

import dev.transforms.runtime.catalog.Catalogs;
import dev.transforms.runtime.catalog.TableResolver;
import dev.transforms.runtime.catalog.TransformsConfig;
import dev.transforms.runtime.maintenance.MaintenanceEngine;
import dev.transforms.runtime.maintenance.MaintenanceOptions;
import dev.transforms.runtime.maintenance.TableMaintenance;
import dev.transforms.runtime.path.DatasetPath;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code transforms maintain PATH...}: compacts, rewrites manifests, expires snapshots and looks for
 * orphan files, through {@link TableMaintenance}, under its safety rules.
 */
@Command(name = "maintain",
    description = {"Maintains tables: compacts small files and files with deletes, rewrites manifests, expires old "
        + "snapshots and lists orphan files (deleting them only with --delete-orphans).",
        "With no action named, does them all. Branches, tags and the SDK's staging branches are never expired; a "
        + "table that a running build writes is refused."},
    footer = {"", "Examples:",
        "  transforms maintain /Shop/orders",
        "  transforms maintain /Shop/orders --compact",
        "  transforms maintain /Shop/orders --expire --older-than 7d --retain-last 10 --keep-incremental-state",
        "  transforms maintain /Shop/orders --remove-orphans --delete-orphans"})
final class MaintainCommand implements Callable<Integer> {

  @ParentCommand TransformsCli parent;

  @Spec CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "PATH", arity = "0..*", description = "Dataset paths of the tables to maintain.")
  List<String> paths = new ArrayList<>();

  @Option(names = "--compact", description = "Rewrite small data files and files with deletes.")
  boolean compact;

  @Option(names = "--rewrite-manifests", description = "Regroup the current snapshot's manifests by partition.")
  boolean rewriteManifests;

  @Option(names = "--expire", description = "Expire snapshots of main older than --older-than, keeping the last "
      + "--retain-last.")
  boolean expire;

  @Option(names = "--remove-orphans", description = "Look for files no snapshot or metadata file references (a dry "
      + "run unless --delete-orphans).")
  boolean removeOrphans;

  @Option(names = "--older-than", paramLabel = "AGE", defaultValue = "5d",
      description = "Snapshots older than this expire: 5d, 12h, 30m or ISO-8601 (default: ${DEFAULT-VALUE}).")
  String olderThan;

  @Option(names = "--retain-last", paramLabel = "N", defaultValue = "1",
      description = "Snapshots of main kept whatever their age (default: ${DEFAULT-VALUE}).")
  int retainLast;

  @Option(names = "--keep-incremental-state", description = "Keep the snapshots that downstream incremental "
      + "transforms recorded as their input, so they stay incremental.")
  boolean keepIncrementalState;

  @Option(names = "--orphans-older-than", paramLabel = "AGE", defaultValue = "3d",
      description = "Only files older than this are orphans; under 3d is refused (default: ${DEFAULT-VALUE}).")
  String orphansOlderThan;

  @Option(names = "--delete-orphans", description = "Delete the orphan files found (otherwise they are listed).")
  boolean deleteOrphans;

  @Option(names = "--allow-deleting-files-of-running-writes", description = "Accept --orphans-older-than under 3 "
      + "days: files of a write still running will be deleted.")
  boolean allowShortRetention;

  @Option(names = "--equal-scheme", paramLabel = "LISTED=METADATA",
      description = "Treat two URI schemes as one storage when comparing listed files with the metadata (s3a=s3).")
  List<String> equalSchemes = new ArrayList<>();

  @Option(names = "--equal-authority", paramLabel = "LISTED=METADATA",
      description = "Treat two URI authorities as one storage (bucket.internal=bucket).")
  List<String> equalAuthorities = new ArrayList<>();

  @Option(names = "--metadata-delete-after-commit", paramLabel = "true|false",
      description = "Set write.metadata.delete-after-commit.enabled: commits delete metadata files beyond "
          + "--metadata-previous-versions.")
  Boolean metadataDeleteAfterCommit;

  @Option(names = "--metadata-previous-versions", paramLabel = "N",
      description = "Set write.metadata.previous-versions-max.")
  Integer metadataPreviousVersions;

  @Option(names = "--engine", paramLabel = "ENGINE",
      description = "single-node or spark (default: single-node when on the classpath).")
  String engine;

  @Override
  public Integer call() {
    if (paths.isEmpty()) {
      throw new CommandLine.ParameterException(spec.commandLine(), "Name the tables to maintain: transforms maintain "
          + "PATH...");
    }
    MaintenanceOptions options = options();
    List<DatasetPath> datasetPaths = paths.stream().map(DatasetPath::of).toList();
    TransformsConfig config = parent.loadConfig();
    PrintWriter out = parent.out();
    TableResolver resolver = new TableResolver(config);
    try (Catalogs catalogs = new Catalogs(config);
        MaintenanceEngine chosen = TableMaintenance.findEngine(Thread.currentThread().getContextClassLoader(),
            Optional.ofNullable(engine))) {
      chosen.start(config);
      TableMaintenance maintenance = new TableMaintenance(catalogs, chosen);
      for (DatasetPath path : datasetPaths) {
        out.printf("%s (%s), %s engine:%n", path, resolver.resolve(path).sparkIdentifier(), chosen.name());
        out.flush();
        maintenance.maintain(path, options, line -> {
          out.println("  " + line);
          out.flush();
        });
      }
    }
    return TransformsCli.OK;
  }

  private MaintenanceOptions options() {
    boolean none = !compact && !rewriteManifests && !expire && !removeOrphans;
    try {
      return new MaintenanceOptions(none || expire, duration("--older-than", olderThan), retainLast,
          keepIncrementalState, none || rewriteManifests, none || compact, none || removeOrphans,
          duration("--orphans-older-than", orphansOlderThan), deleteOrphans, allowShortRetention,
          pairs("--equal-scheme", equalSchemes), pairs("--equal-authority", equalAuthorities),
          Optional.ofNullable(metadataDeleteAfterCommit), Optional.ofNullable(metadataPreviousVersions));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /**
   * Parses an age: a number with {@code d}, {@code h}, {@code m} or {@code s}, or ISO-8601 ({@code P5D}).
   *
   * @throws IllegalArgumentException naming the option
   */
  static Duration duration(String option, String text) {
    String value = text.strip().toLowerCase(Locale.ROOT);
    try {
      if (value.startsWith("p")) {
        return Duration.parse(value.toUpperCase(Locale.ROOT));
      }
      if (value.length() >= 2) {
        long amount = Long.parseLong(value.substring(0, value.length() - 1));
        switch (value.charAt(value.length() - 1)) {
          case 'd':
            return Duration.ofDays(amount);
          case 'h':
            return Duration.ofHours(amount);
          case 'm':
            return Duration.ofMinutes(amount);
          case 's':
            return Duration.ofSeconds(amount);
          default:
            break;
        }
      }
    } catch (NumberFormatException | DateTimeParseException e) {
      // fall through to the error below
    }
    throw new IllegalArgumentException(option + " '" + text + "' is not an age; write 5d, 12h, 30m or P5D");
  }

  private static Map<String, String> pairs(String option, List<String> values) {
    Map<String, String> pairs = new LinkedHashMap<>();
    for (String value : values) {
      int eq = value.indexOf('=');
      if (eq <= 0 || eq == value.length() - 1) {
        throw new IllegalArgumentException(option + " '" + value + "' must be LISTED=METADATA, such as s3a=s3");
      }
      pairs.put(value.substring(0, eq).strip(), value.substring(eq + 1).strip());
    }
    return pairs;
  }
}
