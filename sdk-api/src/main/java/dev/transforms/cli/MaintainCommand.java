package dev.transforms.cli;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.maintenance.MaintenanceEngine;
import dev.transforms.runtime.maintenance.MaintenanceOptions;
import dev.transforms.runtime.maintenance.MaintenancePolicies;
import dev.transforms.runtime.maintenance.TableMaintenance;
import dev.transforms.runtime.secrets.CauseChain;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
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
    footer = {"", "With several tables, each is maintained in turn; one that fails is reported",
        "and the others go on.",
        "", "Examples:",
        "  transforms maintain /Shop/orders",
        "  transforms maintain /Shop/orders --compact",
        "  transforms maintain /Shop/orders --expire --older-than 7d --retain-last 10",
        "  transforms maintain /Shop/orders --expire --keep-incremental-state",
        "  transforms maintain /Shop/orders --remove-orphans --delete-orphans",
        "  transforms maintain --all"})
final class MaintainCommand implements Callable<Integer> {

  @ParentCommand TransformsCli parent;

  @Spec CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "PATH", arity = "0..*", description = "Dataset paths of the tables to maintain.")
  List<String> paths = new ArrayList<>();

  @Option(names = "--all", description = "Maintain every table under a prefix with a policy in "
      + "transforms.properties (maintain.PREFIX.OPTION=VALUE), each with its policy's options.")
  boolean all;

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

  // arity 1: a Boolean option is a flag by default, which took "false" for a table path.
  @Option(names = "--metadata-delete-after-commit", paramLabel = "true|false", arity = "1",
      description = "Set write.metadata.delete-after-commit.enabled: commits delete metadata files beyond "
          + "--metadata-previous-versions.")
  Boolean metadataDeleteAfterCommit;

  @Option(names = "--metadata-previous-versions", paramLabel = "N",
      description = "Set write.metadata.previous-versions-max.")
  Integer metadataPreviousVersions;

  @Option(names = "--engine", paramLabel = "ENGINE", completionCandidates = Engines.class,
      description = "single-node or spark (default: single-node when on the classpath).")
  String engine;

  /** The words --engine takes, for shell completion: the engines there are, whether on the classpath or not. */
  static final class Engines implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return List.of(MaintenanceEngine.SINGLE_NODE, MaintenanceEngine.SPARK).iterator();
    }
  }

  /** The options that only apply to the tables named on the command line, not to --all's policies. */
  private static final List<String> PATH_OPTIONS = List.of("--compact", "--rewrite-manifests", "--expire",
      "--remove-orphans", "--older-than", "--retain-last", "--keep-incremental-state", "--orphans-older-than",
      "--delete-orphans", "--allow-deleting-files-of-running-writes", "--equal-scheme", "--equal-authority",
      "--metadata-delete-after-commit", "--metadata-previous-versions");

  @Override
  public Integer call() {
    if (all == !paths.isEmpty()) {
      throw new CommandLine.ParameterException(spec.commandLine(), all
          ? "--all maintains the tables that policies cover: leave out PATH"
          : "Name the tables to maintain: transforms maintain PATH... (or --all for the policies of "
              + TransformsConfig.FILE_NAME + ")");
    }
    if (all) {
      refuseOptionsBesideAll();
    } else {
      refuseOptionsOfStepsNotAsked();
      refuseTablesNamedTwice();
    }
    MaintenanceOptions options = all ? null : options();
    List<DatasetPath> named = paths.stream().map(DatasetPath::of).toList();
    TransformsConfig config = parent.loadConfig();
    MaintenancePolicies policies = MaintenancePolicies.of(config.values());
    PrintWriter out = parent.out();
    PrintWriter err = spec.commandLine().getErr();
    TableResolver resolver = new TableResolver(config);
    int done = 0;
    List<RuntimeException> failures = new ArrayList<>();
    try (MaintenanceEngine chosen = TableMaintenance.findEngine(Thread.currentThread().getContextClassLoader(),
            Optional.ofNullable(engine));
        TableMaintenance maintenance = TableMaintenance.open(config, chosen)) {
      List<DatasetPath> tables = all ? policies.tables(maintenance) : named;
      if (all && tables.isEmpty()) {
        out.println(policies.prefixes().isEmpty()
            ? "No maintenance policy in " + config.source().map(Object::toString).orElse(TransformsConfig.FILE_NAME)
                + ": add maintain.PREFIX.OPTION=VALUE keys (see docs/maintenance.md)"
            : "No table under " + String.join(", ", policies.prefixes()));
        out.flush();
        return TransformsCli.OK;
      }
      // Every table named must exist before any is touched: a refused command changes nothing.
      tables.forEach(maintenance::load);
      chosen.start(config);
      for (DatasetPath path : tables) {
        out.printf("%s (%s), %s engine:%n", path, resolver.resolve(path).sparkIdentifier(), chosen.name());
        out.flush();
        MaintenanceOptions chosenOptions = all ? policies.optionsFor(path.toString()) : options;
        try {
          maintenance.maintain(path, chosenOptions, line -> {
            out.println("  " + line);
            out.flush();
          });
          done++;
        } catch (RuntimeException e) {
          // The other tables go on; the exit code tells.
          failures.add(e);
          out.flush();
          err.print(CauseChain.of(e, config.masker()).format("error: ", "  "));
          err.flush();
        }
      }
    }
    if (failures.isEmpty()) {
      return TransformsCli.OK;
    }
    // Nothing changed: the code of what stopped it; some tables maintained and others not: failed.
    return done == 0 ? ExitCodes.of(failures.get(0)) : ExitCodes.FAILED;
  }

  /** --all takes each table's options from its policy: an option beside it would be ignored, so it is refused. */
  private void refuseOptionsBesideAll() {
    CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
    List<String> given = PATH_OPTIONS.stream().filter(parsed::hasMatchedOption).toList();
    if (given.isEmpty()) {
      return;
    }
    String advice = given.contains("--allow-deleting-files-of-running-writes")
        ? "; a policy cannot relax a safety rule: to remove young orphan files, name the table: transforms maintain "
            + "PATH --remove-orphans --orphans-older-than AGE --allow-deleting-files-of-running-writes"
        : "; set them in the policies instead (maintain.PREFIX.OPTION=VALUE in " + TransformsConfig.FILE_NAME
            + ", such as maintain./Shop.older-than=7d or maintain./Shop.actions=compact,expire), or name the tables";
    throw new CommandLine.ParameterException(spec.commandLine(), "--all maintains each table with the options of its "
        + "policy, so it takes no " + String.join(", ", given) + advice);
  }

  /** The options that tune one step each; with only other steps named, such an option would do nothing. */
  private static final Map<String, String> STEP_OF_OPTION = Map.of(
      "--older-than", "--expire", "--retain-last", "--expire", "--keep-incremental-state", "--expire",
      "--orphans-older-than", "--remove-orphans", "--delete-orphans", "--remove-orphans",
      "--allow-deleting-files-of-running-writes", "--remove-orphans", "--equal-scheme", "--remove-orphans",
      "--equal-authority", "--remove-orphans");

  /**
   * Refuses an option of a step that is not asked for ({@code --compact --keep-incremental-state}): with
   * some steps named, only those run, and the option would be accepted and do nothing. With no step named
   * every step runs, so every option applies.
   */
  private void refuseOptionsOfStepsNotAsked() {
    if (!compact && !rewriteManifests && !expire && !removeOrphans) {
      return;
    }
    CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
    List<String> idle = new ArrayList<>();
    STEP_OF_OPTION.forEach((option, step) -> {
      if (parsed.hasMatchedOption(option) && !parsed.hasMatchedOption(step)) {
        idle.add(option + " (a setting of " + step + ")");
      }
    });
    if (!idle.isEmpty()) {
      idle.sort(null);
      throw new CommandLine.ParameterException(spec.commandLine(), "Only the steps named run, and "
          + String.join(", ", idle) + " would do nothing: add the step it belongs to, or leave the option out");
    }
  }

  /** Refuses a table named twice: it would be maintained twice over. */
  private void refuseTablesNamedTwice() {
    java.util.Set<DatasetPath> seen = new java.util.HashSet<>();
    for (String path : paths) {
      if (!seen.add(DatasetPath.of(path))) {
        throw new CommandLine.ParameterException(spec.commandLine(), "Table " + path
            + " is named twice: name each table to maintain once");
      }
    }
  }

  private MaintenanceOptions options() {
    boolean none = !compact && !rewriteManifests && !expire && !removeOrphans;
    try {
      return new MaintenanceOptions(none || expire, MaintenancePolicies.age("--older-than", olderThan), retainLast,
          keepIncrementalState, none || rewriteManifests, none || compact, none || removeOrphans,
          MaintenancePolicies.age("--orphans-older-than", orphansOlderThan), deleteOrphans, allowShortRetention,
          MaintenancePolicies.pairs("--equal-scheme", String.join(",", equalSchemes)), MaintenancePolicies.pairs("--equal-authority", String.join(",", equalAuthorities)),
          Optional.ofNullable(metadataDeleteAfterCommit), Optional.ofNullable(metadataPreviousVersions));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
