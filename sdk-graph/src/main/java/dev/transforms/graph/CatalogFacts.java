package dev.transforms.graph;

import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.cli.report.Html;
import dev.transforms.cli.report.LastBuilds.LastBuild;
import dev.transforms.cli.report.LastBuilds;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.incremental.Freshness;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.internal.publish.BranchView;
import dev.transforms.runtime.internal.publish.BuildBranch;
import dev.transforms.runtime.spi.DatasetKind;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * Facts from the catalog and the last builds: each table's current snapshot, row count ({@code
 * total-records} of its snapshot summary) and age; each transform's last build (from {@link LastBuilds},
 * or from the state its last publication stored when no build was recorded here), and whether it is
 * stale: built before, and not up to date now, by the one decision builds skip transforms with
 * ({@link Freshness}: an input moved, its code or settings changed, its output changed since). Reads
 * only: a catalog without a database yet is not created.
 *
 * <p>On a branch ({@code graph --branch NAME}) each table is as a build of that branch sees it: at the
 * branch's head with the state its builds stored where the branch is cut, else at {@code main}; an input
 * read along the fallbacks for staleness.
 */
public final class CatalogFacts implements NodeFacts {

  private final Catalogs catalogs;
  private final TransformsConfig config;
  private final TableResolver resolver;
  private final Map<String, LastBuild> lastBuilds;
  private final Instant now;
  private final BuildBranch branch;
  private final Map<DatasetPath, Optional<Table>> tables = new HashMap<>();
  private final Map<DatasetPath, String> problems = new HashMap<>();
  private final Map<String, Freshness> freshness = new HashMap<>();

  /**
   * Facts read through open catalogs.
   *
   * @param catalogs the catalogs, left open
   * @param config the configuration (where file datasets live, the engines' settings)
   * @param lastBuilds the last builds recorded in the warehouse
   * @param now the time ages are measured to
   */
  public CatalogFacts(Catalogs catalogs, TransformsConfig config, Map<String, LastBuild> lastBuilds, Instant now) {
    this(catalogs, config, lastBuilds, now, BuildBranch.MAIN);
  }

  /**
   * Facts read through open catalogs, each table as a build of a branch sees it.
   *
   * @param catalogs the catalogs, left open
   * @param config the configuration
   * @param lastBuilds the last builds recorded on that branch
   * @param now the time ages are measured to
   * @param branch the branch; {@link BuildBranch#MAIN} for {@code main}
   */
  public CatalogFacts(Catalogs catalogs, TransformsConfig config, Map<String, LastBuild> lastBuilds, Instant now,
      BuildBranch branch) {
    this.catalogs = catalogs;
    this.config = config;
    this.resolver = config == null ? null : new TableResolver(config);
    this.lastBuilds = lastBuilds;
    this.now = now;
    this.branch = branch;
  }

  @Override
  public GraphNode transform(TransformSpec spec) {
    Map<String, String> details = NodeFacts.planDetails(spec);
    List<String> lines = new ArrayList<>();
    lines.add(NodeFacts.engineLine(spec));
    Optional<IncrementalState> state = publishedState(spec);
    LastBuild last = lastBuilds.get(spec.name());
    String status;
    if (last != null) {
      status = last.status();
      lines.add(last.status().toLowerCase(java.util.Locale.ROOT) + " " + Html.seconds(last.duration()) + ", "
          + dev.transforms.runtime.Counts.of(last.rowsWritten(), "row"));
      details.put("last build", last.status() + (last.status().equals("SKIPPED") ? ""
          : last.incremental() ? ", incremental" : ", full")
          + (last.promotedFrom().isEmpty() ? "" : ", on branch " + last.promotedFrom() + ", since promoted"));
      details.put("started", last.started() + " (" + age(last.started()) + ")");
      details.put("duration", Html.seconds(last.duration()));
      details.put("rows written", Long.toString(last.rowsWritten()));
      details.put("reason", last.reason().isEmpty() ? "-" : last.reason());
      if (!last.error().isEmpty()) {
        details.put("error", last.error());
      }
    } else if (state.isPresent()) {
      status = "PUBLISHED";
      long rows = rowsWrittenBy(spec, state.get().buildId());
      lines.add("published, " + dev.transforms.runtime.Counts.of(rows, "row"));
      details.put("last build", "published (no build recorded in this warehouse)");
      details.put("rows written", Long.toString(rows));
    } else {
      status = "NONE";
      lines.add("not built yet");
      details.put("last build", "none");
    }
    state.ifPresent(s -> details.put("published build", s.buildId()));
    boolean isStale = isStale(spec);
    if (isStale) {
      lines.add("STALE");
      details.put("stale", "yes: " + freshness(spec).reason());
    } else {
      details.put("stale", state.isPresent() ? "no" : "-");
    }
    return new GraphNode(GraphNode.transformId(spec.name()), GraphNode.Kind.TRANSFORM, spec.name(), lines, details,
        status, isStale);
  }

  @Override
  public GraphNode dataset(ParameterSpec declared, TransformSpec producer) {
    DatasetPath path = declared.requirePath();
    Map<String, String> details = new LinkedHashMap<>();
    details.put("path", path.toString());
    details.put("produced by", producer == null ? "none (a source)" : producer.name());
    List<String> lines = new ArrayList<>();
    String status;
    if (declared.kind().orElse(DatasetKind.TABLE) == DatasetKind.FILES) {
      status = "FILES";
      lines.add("files");
      details.put("kind", "files");
    } else {
      ResolvedTable resolved = resolver.resolve(path);
      lines.add(resolved.catalog() + "." + resolved.identifier());
      details.put("catalog table", resolved.sparkIdentifier());
      Optional<Table> table = table(path);
      Snapshot current = table.map(Table::currentSnapshot).orElse(null);
      if (table.isEmpty()) {
        status = "MISSING";
        lines.add("no table yet");
        details.put("table", problems.getOrDefault(path, "none yet"));
      } else if (current == null) {
        status = "TABLE";
        lines.add("empty, no snapshot");
        details.put("current snapshot", "none");
      } else {
        status = "TABLE";
        String rows = current.summary() == null ? "?" : current.summary().getOrDefault("total-records", "?");
        Instant committed = Instant.ofEpochMilli(current.timestampMillis());
        lines.add(rows + ("1".equals(rows) ? " row, " : " rows, ") + age(committed));
        details.put("current snapshot", Long.toString(current.snapshotId()));
        details.put("rows", rows);
        details.put("committed", committed + " (" + age(committed) + ")");
        details.put("snapshots", Integer.toString(count(table.get().snapshots())));
      }
    }
    boolean isStale = producer != null && isStale(producer);
    if (isStale) {
      lines.add("STALE");
      details.put("stale", "yes: " + freshness(producer).reason());
    }
    return new GraphNode(GraphNode.datasetId(path.toString()), GraphNode.Kind.DATASET, path.toString(), lines,
        details, status, isStale);
  }

  private static int count(Iterable<?> items) {
    int n = 0;
    for (Object ignored : items) {
      n++;
    }
    return n;
  }

  /** The time since an instant, in its largest whole unit. */
  String age(Instant then) {
    long seconds = Math.max(0, Duration.between(then, now).getSeconds());
    return seconds < 120 ? seconds + " s ago" : seconds < 7200 ? seconds / 60 + " min ago"
        : seconds < 172800 ? seconds / 3600 + " h ago" : dev.transforms.runtime.Counts.of(seconds / 86400, "day") + " ago";
  }

  /** A table as a build of the branch decides from it: at the branch's head where it is cut. */
  private Optional<Table> table(DatasetPath path) {
    return loaded(path).map(t -> BranchView.output(t, branch));
  }

  /**
   * An input as a build of the branch reads it.
   *
   * @throws DatasetNotFoundException naming the branches, if the table has none of those a build reads
   */
  private Optional<Table> input(DatasetPath path) {
    return loaded(path).map(t -> BranchView.input(t, path.toString(), branch));
  }

  private Optional<Table> loaded(DatasetPath path) {
    return tables.computeIfAbsent(path, p -> {
      ResolvedTable resolved = resolver.resolve(p);
      try {
        Optional<Catalog> catalog = catalogs.existingCatalog(resolved.catalog());
        if (catalog.isEmpty()) {
          problems.put(p, "catalog '" + resolved.catalog() + "' has no database yet");
          return Optional.empty();
        }
        return Optional.of(catalog.get().loadTable(resolved.identifier()));
      } catch (NoSuchTableException e) {
        return Optional.empty();
      } catch (RuntimeException e) {
        problems.put(p, "cannot be read: " + e.getMessage());
        return Optional.empty();
      }
    });
  }

  /** The state the transform's last publication stored, from its first output table that has one. */
  private Optional<IncrementalState> publishedState(TransformSpec spec) {
    for (ParameterSpec output : spec.outputs()) {
      if (output.kind().orElse(DatasetKind.TABLE) == DatasetKind.TABLE) {
        Optional<IncrementalState> state = table(output.requirePath())
            .flatMap(t -> IncrementalState.fromProperties(t.properties()));
        if (state.isPresent()) {
          return state;
        }
      }
    }
    return Optional.empty();
  }

  private long rowsWrittenBy(TransformSpec spec, String buildId) {
    long rows = 0;
    for (DatasetPath path : spec.outputPaths()) {
      for (Snapshot s : table(path).<Iterable<Snapshot>>map(Table::snapshots).orElse(List.of())) {
        Map<String, String> summary = s.summary() == null ? Map.of() : s.summary();
        if (buildId.equals(summary.get(IncrementalState.SUMMARY_BUILD_ID))) {
          rows += Long.parseLong(summary.getOrDefault("added-records", "0"));
        }
      }
    }
    return rows;
  }

  /** Built before, and not up to date now. */
  private boolean isStale(TransformSpec spec) {
    return publishedState(spec).isPresent() && !freshness(spec).upToDate();
  }

  private Freshness freshness(TransformSpec spec) {
    return freshness.computeIfAbsent(spec.name(), n -> {
      try {
        return Freshness.evaluate(spec, config, this::table, this::input);
      } catch (DatasetNotFoundException e) {
        // an input with none of the branches a build of the branch reads: as plan says, that build fails
        return new Freshness(false, "a build fails: " + e.getMessage(), false);
      }
    });
  }
}
