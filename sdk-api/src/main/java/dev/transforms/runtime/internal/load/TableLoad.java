package dev.transforms.runtime.internal.load;

import dev.transforms.api.BadRowsException;
import dev.transforms.api.Handle;
import dev.transforms.api.InvalidLoadException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.internal.publish.BuildRecovery;
import dev.transforms.runtime.internal.publish.OutputPublisher;
import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.CommittedFiles;
import dev.transforms.runtime.spi.DatasetKind;
import dev.transforms.runtime.spi.LoadEngine;
import dev.transforms.runtime.spi.LoadListener;
import dev.transforms.runtime.spi.ParameterSpec;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Loads files into tables with the publish protocol of builds ({@link OutputPublisher}): all the tables
 * of one load change at once when every file was read without a bad row, or none changes at all.
 *
 * <p>Per table: what a dead build or load left on it is removed first ({@link BuildRecovery}); then the
 * load's staging branch is cut with its lease (a table that does not exist is created empty on
 * {@code main} with the lease and gets its branch); the rows are written as data files and committed
 * to the branch, as one append (or, with {@link LoadMode#REPLACE} on an existing table, one overwrite
 * of every row); and once every table is written, each one's {@code main} is fast-forwarded to its
 * branch. A bad row anywhere, or any error, discards every branch and drops every table the load
 * created: the tables are as they were. The published tables carry the load's state as a build's
 * outputs do, with {@value #TRANSFORM} as the transform's name.
 *
 * <p>What is checked before anything is written: the mode against the table's existence, the declared
 * (or Parquet) columns against an existing table's schema, the partitioning against an existing
 * table's spec, names that fit a local warehouse's folders, and what the engine can check of the files
 * without reading their rows ({@link LoadEngine#check}: format, encoding, header).
 */
public final class TableLoad {

  /** The name a load's snapshots and state carry in place of a transform's. */
  public static final String TRANSFORM = OutputPublisher.LOAD;

  /** The longest folder name, in bytes, of the usual local file systems (ext4, XFS, APFS). */
  static final int MAX_FOLDER_NAME_BYTES = 255;

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Catalogs catalogs;
  private final TableResolver resolver;
  private final LoadEngine engine;

  /**
   * Creates a load over a configuration's catalogs.
   *
   * @param catalogs the catalogs to write through
   * @param resolver resolves dataset paths
   * @param engine reads the files and writes data files
   */
  public TableLoad(Catalogs catalogs, TableResolver resolver, LoadEngine engine) {
    this.catalogs = catalogs;
    this.resolver = resolver;
    this.engine = engine;
  }

  /**
   * The load engine on a class loader's classpath.
   *
   * @param loader the class loader to search
   * @return the first engine found
   * @throws InvalidLoadException if there is none: {@code dev.transforms:sdk-single-node} provides one
   */
  public static LoadEngine findEngine(ClassLoader loader) {
    for (LoadEngine engine : ServiceLoader.load(LoadEngine.class, loader)) {
      return engine;
    }
    throw new InvalidLoadException("Loading files needs the single-node engine, which is not on the classpath: "
        + "add dev.transforms:sdk-single-node");
  }

  /**
   * Checks what can be checked of the requests without a catalog, so that a load refused for them starts
   * no catalog (which would create the embedded catalog's database and the warehouse folder): names that
   * fit a local warehouse's folders; for declared columns, what the engine checks of the files
   * ({@link LoadEngine#check}); for Parquet files, that they are Parquet and agree. {@link #run} checks
   * the rest, and the files again against an existing table's columns.
   *
   * @param requests the tables to load
   * @throws InvalidLoadException naming the path, file or line at fault
   */
  public void checkBeforeCatalogs(List<LoadRequest> requests) {
    for (LoadRequest request : requests) {
      checkFolderNames(request.path(), resolver.resolve(request.path()));
      if (request.format().carriesSchema()) {
        engine.fileSchema(request.files());
      } else if (request.declaration().isPresent()) {
        engine.check(request.declaration().get().schema(), request.files(), request.text());
      }
    }
  }

  /**
   * Loads every request, all or nothing.
   *
   * @param requests the tables to load, each once
   * @param listener hears progress
   * @return what was done to each table, in request order
   * @throws InvalidLoadException if a request does not fit its table or another request; nothing is
   *     written then
   * @throws BadRowsException listing the rows of every file that do not fit; nothing is written
   * @throws dev.transforms.api.PublishConflictException if another writer changed or created a table
   *     meanwhile; nothing of this load is published
   */
  public List<LoadedTable> run(List<LoadRequest> requests, LoadListener listener) {
    Set<DatasetPath> paths = new HashSet<>();
    for (LoadRequest request : requests) {
      if (!paths.add(request.path())) {
        throw new InvalidLoadException("Table " + request.path() + " is loaded twice in one load; name all its "
            + "files once");
      }
    }
    String buildId = HexFormat.of().formatHex(randomBytes());
    List<Target> targets = new ArrayList<>();
    for (LoadRequest request : requests) {
      targets.add(plan(request));
    }
    // The files' format, encoding and header, before anything touches a table.
    for (Target target : targets) {
      engine.check(target.columns, target.request.files(), target.request.text());
    }
    // What dead builds and loads left on the tables goes first.
    for (Target target : targets) {
      if (target.existing != null) {
        BuildRecovery.recover(TRANSFORM, buildId, List.of(target.output()));
      }
    }

    List<CreatedNamespace> createdNamespaces = new ArrayList<>();
    OutputPublisher publisher = null;
    try {
      for (Target target : targets) {
        if (target.existing == null) {
          createdNamespaces.addAll(createNamespace(target.catalog, target.resolved.identifier().namespace()));
        }
      }
      publisher = OutputPublisher.stage(TRANSFORM, buildId, targets.stream().map(Target::output).toList());
      Map<String, String> provenance = IncrementalState.provenance(TRANSFORM, buildId);
      List<String> badRows = new ArrayList<>();
      long badCount = 0;
      for (Target target : targets) {
        Table table = target.existing != null ? publisher.table(target.bound()).orElseThrow()
            : publisher.createTable(target.bound(), target.columns, target.spec, Map.of());
        Schema columns = target.existing != null ? target.columns : inOrder(table.schema(), target.columns);
        List<DataFile> files;
        try {
          files = engine.write(table, columns, target.request.files(), target.request.text(), listener);
        } catch (BadRowsException e) {
          badCount += e.count();
          badRows.addAll(e.badRows());
          continue;
        }
        if (badCount > 0) {
          continue;
        }
        commit(table, files, target, publisher.branch(target.bound()), provenance);
      }
      if (badCount > 0) {
        throw new BadRowsException(badCount, badRows);
      }
      OutputPublisher publishing = publisher;
      publisher = null;
      // No checks run on a load: nothing to record beside the state.
      List<OutputWrites> writes = publishing.publish(new IncrementalState(TRANSFORM, 1, buildId, Map.of()),
          Map.of());
      List<LoadedTable> loaded = new ArrayList<>();
      for (int i = 0; i < targets.size(); i++) {
        loaded.add(new LoadedTable(targets.get(i).request, targets.get(i).resolved, writes.get(i)));
      }
      return loaded;
    } catch (RuntimeException | LinkageError e) {
      if (publisher != null) {
        publisher.discard();
      }
      dropEmpty(createdNamespaces);
      throw e;
    }
  }

  private static byte[] randomBytes() {
    byte[] bytes = new byte[6];
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  /** Checks a request against its table, before anything is written, and settles columns and spec. */
  private Target plan(LoadRequest request) {
    ResolvedTable resolved = resolver.resolve(request.path());
    checkFolderNames(request.path(), resolved);
    Catalog catalog = catalogs.catalog(resolved.catalog());
    Table existing;
    try {
      existing = catalog.loadTable(resolved.identifier());
    } catch (NoSuchTableException e) {
      existing = null;
    }
    String table = request.path() + " (" + resolved.sparkIdentifier() + ")";
    if (existing != null && request.mode() == LoadMode.CREATE) {
      throw new InvalidLoadException("Table " + table + " exists; --mode create only creates tables. Use --mode "
          + "append to add the rows to it, or --mode replace to replace its rows");
    }
    Schema source;
    if (request.format().carriesSchema()) {
      source = engine.fileSchema(request.files());
    } else if (request.declaration().isPresent()) {
      source = request.declaration().get().schema();
    } else if (existing != null) {
      source = existing.schema();
    } else if (request.inferSchema()) {
      source = engine.inferSchema(request.files(), request.text());
    } else if (request.seedSchemaFile().isPresent()) {
      // --all takes no --schema nor --schema-file: the seed's columns go in its .schema file.
      throw new InvalidLoadException("The columns of seed " + request.files().get(0) + " are not declared: write "
          + "them in " + request.seedSchemaFile().get() + ", one a line (such as 'id long not null'), or guess "
          + "them with --infer-schema");
    } else {
      throw new InvalidLoadException("The columns of " + request.files().get(0) + " are not declared: give them "
          + "with --schema \"id long not null, name string, ...\" or --schema-file FILE, or ask for a guess with "
          + "--infer-schema");
    }
    if (existing == null) {
      PartitionSpec spec = PartitionDeclaration.toSpec(request.partitioning().orElse(""), source,
          request.partitionBy().isPresent() ? "--partition-by"
              : request.declaration().map(TableDeclaration::origin).orElse("--partition-by"));
      return new Target(request, resolved, catalog, null, source, spec);
    }
    List<String> differences = differences(existing.schema(), source);
    if (!differences.isEmpty()) {
      throw new InvalidLoadException("The columns of " + describe(request) + " do not fit table " + table
          + ", which exists:\n  - " + String.join("\n  - ", differences) + "\nA load does not change a table's "
          + "schema; change the columns, or change the table's schema in a step of its own");
    }
    if (request.partitioning().isPresent()) {
      PartitionSpec asked = PartitionDeclaration.toSpec(request.partitioning().get(), existing.schema(),
          "the partitioning of " + table);
      if (!asked.compatibleWith(existing.spec())) {
        throw new InvalidLoadException("Table " + table + " is partitioned by " + describe(existing.spec())
            + ", not by " + request.partitioning().get() + "; the partitioning given to a load shapes only a "
            + "table it creates: leave it out, or change the table's spec in a step of its own");
      }
    }
    Schema columns = inOrder(existing.schema(), source);
    return new Target(request, resolved, catalog, existing, columns, existing.spec());
  }

  /**
   * Refuses a table whose namespace levels or name do not fit in a folder name of a warehouse on the local
   * file system, where each becomes a folder: at most {@value #MAX_FOLDER_NAME_BYTES} bytes in UTF-8.
   */
  private void checkFolderNames(DatasetPath path, ResolvedTable resolved) {
    String warehouse = catalogs.config().catalogs().getOrDefault(resolved.catalog(), Map.of()).getOrDefault("warehouse", "");
    if (!warehouse.startsWith("file:") && !warehouse.startsWith("/")) {
      return;
    }
    List<String> levels = new ArrayList<>(List.of(resolved.identifier().namespace().levels()));
    levels.add(resolved.identifier().name());
    for (String level : levels) {
      int bytes = level.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      if (bytes > MAX_FOLDER_NAME_BYTES) {
        String shown = level.length() > 40 ? level.substring(0, 40) + "..." : level;
        throw new InvalidLoadException("The name '" + shown + "' (" + level.length() + " characters) in table path "
            + (path.toString().length() > 80 ? path.toString().substring(0, 80) + "..." : path) + " is " + bytes
            + " bytes in UTF-8, but the warehouse of catalog '" + resolved.catalog() + "' keeps it as a folder, "
            + "whose name holds at most " + MAX_FOLDER_NAME_BYTES + " bytes; use a shorter name");
      }
    }
  }

  private static String describe(LoadRequest request) {
    if (request.format().carriesSchema()) {
      return request.files().size() == 1 ? "Parquet file " + request.files().get(0) : "the Parquet files";
    }
    return request.declaration().map(TableDeclaration::origin)
        .orElse(request.inferSchema() ? "the guessed schema" : "the table");
  }

  private static String describe(PartitionSpec spec) {
    return spec.isUnpartitioned() ? "nothing" : spec.fields().toString();
  }

  /**
   * The table's columns in the order the source declares them: a CSV file without a header holds its
   * fields in that order.
   */
  private static Schema inOrder(Schema table, Schema source) {
    List<Types.NestedField> columns = new ArrayList<>();
    for (Types.NestedField column : source.columns()) {
      columns.add(table.findField(column.name()));
    }
    return new Schema(columns);
  }

  /**
   * Why rows of the source columns cannot be written to the table: a column the table lacks, a table
   * column the source lacks though it is required, or another type (a widening Iceberg allows, such
   * as int to long, is fine).
   */
  static List<String> differences(Schema table, Schema source) {
    List<String> differences = new ArrayList<>();
    for (Types.NestedField column : source.columns()) {
      Types.NestedField target = table.findField(column.name());
      if (target == null) {
        differences.add(column.name() + ": not a column of the table");
      } else if (!fits(column.type(), target.type())) {
        differences.add(column.name() + ": the table has " + target.type() + ", the files " + column.type());
      }
    }
    for (Types.NestedField column : table.columns()) {
      if (column.isRequired() && source.findField(column.name()) == null) {
        differences.add(column.name() + ": required by the table, missing from the files");
      }
    }
    return differences;
  }

  private static boolean fits(Type source, Type target) {
    if (source.equals(target)) {
      return true;
    }
    if (!source.isPrimitiveType() || !target.isPrimitiveType()) {
      return false;
    }
    return org.apache.iceberg.types.TypeUtil.isPromotionAllowed(source, target.asPrimitiveType());
  }

  private static void commit(Table table, List<DataFile> files, Target target, String branch,
      Map<String, String> provenance) {
    if (target.existing != null && target.request.mode() == LoadMode.REPLACE) {
      OverwriteFiles overwrite = table.newOverwrite().overwriteByRowFilter(Expressions.alwaysTrue());
      files.forEach(overwrite::addFile);
      provenance.forEach(overwrite::set);
      CommittedFiles.check(overwrite, table, files);
      overwrite.toBranch(branch).commit();
    } else {
      AppendFiles append = table.newAppend();
      files.forEach(append::appendFile);
      provenance.forEach(append::set);
      CommittedFiles.check(append, table, files);
      append.toBranch(branch).commit();
    }
  }

  /** Creates the missing levels of a namespace, and returns those it created, deepest last. */
  private static List<CreatedNamespace> createNamespace(Catalog catalog, Namespace namespace) {
    List<CreatedNamespace> created = new ArrayList<>();
    if (catalog instanceof SupportsNamespaces namespaces) {
      String[] levels = namespace.levels();
      for (int depth = 1; depth <= levels.length; depth++) {
        Namespace level = Namespace.of(java.util.Arrays.copyOf(levels, depth));
        if (!namespaces.namespaceExists(level)) {
          created.add(new CreatedNamespace(namespaces, level));
        }
      }
    }
    Catalogs.createNamespaceIfMissing(catalog, namespace);
    return created;
  }

  /** Drops the namespaces a failed load created, deepest first, unless another writer put something there. */
  private static void dropEmpty(List<CreatedNamespace> created) {
    for (int i = created.size() - 1; i >= 0; i--) {
      CreatedNamespace namespace = created.get(i);
      try {
        if (namespace.catalog().namespaceExists(namespace.namespace())) {
          namespace.catalog().dropNamespace(namespace.namespace());
        }
      } catch (RuntimeException e) {
        // Not empty, or gone already: leave it.
      }
    }
  }

  /** A namespace level this load created. */
  private record CreatedNamespace(SupportsNamespaces catalog, Namespace namespace) {}

  /** A request checked against its table. */
  private record Target(LoadRequest request, ResolvedTable resolved, Catalog catalog, Table existing,
      Schema columns, PartitionSpec spec) {

    OutputPublisher.Output output() {
      return new OutputPublisher.Output(request.path(), resolved, catalog, existing);
    }

    BoundOutput bound() {
      ParameterSpec parameter = new ParameterSpec(0, "table", TableLoad.class.getName(), Handle.Role.OUTPUT,
          Optional.of(request.path()), Optional.of(DatasetKind.TABLE), request.format().toString(), "", List.of());
      return new BoundOutput(parameter, resolved, Optional.ofNullable(existing), Optional.empty());
    }
  }
}
