package dev.transforms.cli;

import dev.transforms.api.InvalidLoadException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.load.LoadMode;
import dev.transforms.runtime.internal.load.LoadRequest;
import dev.transforms.runtime.internal.load.LoadedTable;
import dev.transforms.runtime.internal.load.SeedFolder;
import dev.transforms.runtime.internal.load.TableDeclaration;
import dev.transforms.runtime.internal.load.TableLoad;
import dev.transforms.runtime.spi.LoadListener;
import dev.transforms.runtime.spi.SourceFile;
import dev.transforms.runtime.spi.SourceFormat;
import dev.transforms.runtime.spi.TextOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code transforms load PATH FILE...}: creates a table from CSV, JSON lines or Parquet files, or adds
 * their rows to it, or replaces its rows with them; {@code transforms load --all} loads every file of
 * the {@code seeds/} folder into the table its path names ({@link SeedFolder}).
 *
 * <p>The columns of CSV and JSON files are declared ({@code --schema}, {@code --schema-file}, or the
 * seed's {@code .schema} file); Parquet files carry theirs. Every row is checked against the columns,
 * and the tables change only when every row of every file fits: the load writes on a staging branch and
 * publishes like a build ({@link TableLoad}). Bad rows are listed with their file and line, and nothing
 * is written.
 */
@Command(name = "load",
    description = {"Loads CSV, JSON lines or Parquet files into a table: all rows at once, or none if a row does "
        + "not fit.", "With --all, loads every file of the seeds folder into the table its path names "
        + "(seeds/Shop/raw/orders.csv into /Shop/raw/orders, columns in seeds/Shop/raw/orders.schema)."},
    footer = {"", "Examples:",
        "  transforms load /Shop/raw/orders orders.csv --schema \"id long, amount double\"",
        "  transforms load /Shop/raw/orders orders.csv --schema-file orders.schema",
        "  transforms load /Shop/raw/orders more-orders.csv --mode append",
        "  transforms load /Logs/events events.parquet --partition-by \"days(created_at)\"",
        "  transforms load --all --mode replace"})
final class LoadCommand implements Callable<Integer> {

  /** How long a load runs before progress is shown, and how often after that. */
  private static final long PROGRESS_EVERY_NANOS = 2_000_000_000L;

  @ParentCommand TransformsCli parent;

  @Spec CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "PATH FILE", arity = "0..*",
      description = "The table's dataset path, then the files to load into it (all of one format).")
  List<String> arguments = new ArrayList<>();

  @Option(names = "--schema", paramLabel = "COLUMNS",
      description = "The columns of CSV or JSON files: \"id long not null, as_of date, amount decimal(10,2)\".")
  String schema;

  @Option(names = "--schema-file", paramLabel = "FILE",
      description = "A file declaring the columns, one per line, optionally ending with 'partitioned by SPEC'.")
  Path schemaFile;

  @Option(names = "--partition-by", paramLabel = "SPEC",
      description = "The partitioning of a table the load creates: \"days(created_at), bucket(16, id)\".")
  String partitionBy;

  @Option(names = "--mode", paramLabel = "MODE", defaultValue = "create", completionCandidates = Modes.class,
      description = "create (default: the table must not exist), append (add the rows) or replace (replace every "
          + "row); append and replace create a missing table.")
  String mode;

  @Option(names = "--format", paramLabel = "FORMAT",
      description = "csv, json or parquet, when the file names do not say (.csv, .tsv, .json, .jsonl, .ndjson, "
          + ".parquet, text ones possibly .gz).")
  String format;

  @Option(names = "--delimiter", paramLabel = "CHAR",
      description = "The CSV field separator: a character, or 'tab' (default: ',', a tab for .tsv files).")
  String delimiter;

  @Option(names = "--no-header", description = "CSV files have no header line: their fields come in the declared "
      + "order.")
  boolean noHeader;

  @Option(names = "--infer-schema", description = "Guess the columns of CSV or JSON files that nothing declares, "
      + "from every value (prints a warning; declaring them is safer).")
  boolean inferSchema;

  @Option(names = "--all", description = "Load every file of the seeds folder, each into the table its path names.")
  boolean all;

  @Option(names = "--seeds", paramLabel = "DIR", defaultValue = SeedFolder.DEFAULT_FOLDER,
      description = "The seeds folder for --all (default: ${DEFAULT-VALUE}).")
  Path seeds;

  /**
   * The words --mode takes, for shell completion: a String option (so that a wrong one is refused with
   * the words above, not picocli's) has no values of its own to offer.
   */
  static final class Modes implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return java.util.Arrays.stream(LoadMode.values()).map(m -> m.name().toLowerCase(Locale.ROOT)).iterator();
    }
  }

  @Override
  public Integer call() {
    LoadMode loadMode = mode();
    List<LoadRequest> requests = requests(loadMode);
    warnEmptyFiles(requests);
    TransformsConfig config = parent.loadConfig();
    PrintWriter out = parent.out();
    PrintWriter err = parent.spec.commandLine().getErr();
    try (Catalogs catalogs = new Catalogs(config)) {
      TableResolver resolver = new TableResolver(config);
      TableLoad load = new TableLoad(catalogs, resolver,
          TableLoad.findEngine(Thread.currentThread().getContextClassLoader()));
      // The files first: a load refused for them must not create the catalog's database.
      load.checkBeforeCatalogs(requests);
      TreeSet<String> names = new TreeSet<>();
      requests.forEach(r -> names.add(resolver.resolve(r.path()).catalog()));
      for (String name : names) {
        catalogs.checkWritable(name);
        catalogs.checkWarehouseWritable(name);
        catalogs.catalog(name);
      }
      for (LoadRequest request : requests) {
        if (request.declaration().isEmpty() && request.inferSchema() && !request.format().carriesSchema()) {
          org.apache.iceberg.catalog.TableIdentifier identifier = resolver.resolve(request.path()).identifier();
          if (catalogs.catalog(resolver.resolve(request.path()).catalog()).tableExists(identifier)) {
            err.printf("warning: --infer-schema guesses nothing for %s: the table exists, and its columns are the "
                + "declaration%n", request.path());
          } else {
            err.printf("warning: the columns of %s are guessed from its values; declare them (--schema) so that "
                + "the table's contract does not depend on the data%n", request.path());
          }
        }
      }
      List<LoadedTable> loaded = load.run(requests, progress(err));
      for (LoadedTable table : loaded) {
        out.println(describe(table));
      }
      out.flush();
    }
    return TransformsCli.OK;
  }

  private LoadMode mode() {
    try {
      return LoadMode.valueOf(mode.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidLoadException("Unknown --mode '" + mode + "'; use create, append or replace");
    }
  }

  private List<LoadRequest> requests(LoadMode loadMode) {
    Optional<Character> separator = separator();
    Path directory = parent.workingDirectory();
    if (!all && spec.commandLine().getParseResult().hasMatchedOption("--seeds")) {
      throw new InvalidLoadException("--seeds names the seeds folder of --all; leave it out, or add --all");
    }
    if (all) {
      if (!arguments.isEmpty() || schema != null || schemaFile != null || partitionBy != null || format != null) {
        throw new InvalidLoadException("--all loads the seeds folder as it is: leave out PATH, FILE, --schema, "
            + "--schema-file, --partition-by and --format (a seed's columns and partitioning go in its .schema file)");
      }
      SeedFolder folder = SeedFolder.read(directory.resolve(seeds), loadMode, inferSchema, separator, !noHeader);
      for (Path ignored : folder.ignored()) {
        parent.spec.commandLine().getErr().printf("warning: ignored %s (a seed is a .csv, .tsv, .json, .jsonl, "
            + ".ndjson or .parquet file, with a .schema file beside a text one)%n", directory.relativize(ignored));
      }
      if (folder.requests().isEmpty()) {
        throw new InvalidLoadException("Seeds folder " + directory.resolve(seeds) + " holds no file to load");
      }
      return folder.requests();
    }
    if (arguments.size() < 2) {
      throw new InvalidLoadException("Name the table and the files to load: transforms load PATH FILE... "
          + "(or transforms load --all for the seeds folder)");
    }
    if (schema != null && schemaFile != null) {
      throw new InvalidLoadException("Give the columns once: --schema or --schema-file, not both");
    }
    if (inferSchema && (schema != null || schemaFile != null)) {
      throw new InvalidLoadException("--infer-schema guesses the columns that nothing declares, but "
          + (schema != null ? "--schema" : "--schema-file") + " declares them; leave out --infer-schema");
    }
    if (schemaFile != null) {
      checkSchemaFile(directory.resolve(schemaFile));
    }
    DatasetPath path = DatasetPath.of(arguments.get(0));
    Optional<SourceFormat> named = Optional.ofNullable(format).map(SourceFormat::named);
    List<SourceFile> files = arguments.subList(1, arguments.size()).stream()
        .map(f -> SourceFile.of(directory.resolve(f), named)).toList();
    java.util.Set<Path> seen = new java.util.HashSet<>();
    for (SourceFile file : files) {
      if (!seen.add(file.path().toAbsolutePath().normalize())) {
        throw new InvalidLoadException("File " + file.path() + " is named twice: its rows would be loaded twice; "
            + "name each file once");
      }
    }
    Optional<TableDeclaration> declaration = schema != null ? Optional.of(TableDeclaration.parse(schema, "--schema"))
        : Optional.ofNullable(schemaFile).map(f -> TableDeclaration.read(directory.resolve(f)));
    char chosen = separator.orElse(SeedFolder.isTsv(files.get(0).path()) ? '\t' : ',');
    return List.of(new LoadRequest(path, files, declaration, Optional.ofNullable(partitionBy), loadMode,
        inferSchema, new TextOptions(chosen, !noHeader)));
  }

  /** Refuses a --schema-file that cannot be read, saying why. */
  private static void checkSchemaFile(Path file) {
    String why = java.nio.file.Files.isDirectory(file) ? "is a folder; name the file that declares the columns"
        : !java.nio.file.Files.exists(file) ? "does not exist"
        : !java.nio.file.Files.isRegularFile(file) ? "exists but is not a regular file (a device, a pipe or a socket); "
            + "name the file that declares the columns"
        : !java.nio.file.Files.isReadable(file) ? "cannot be read: permission denied" : null;
    if (why != null) {
      throw new InvalidLoadException("Schema file " + file + " (--schema-file) " + why);
    }
  }

  /**
   * Warns about text files that hold nothing: they add no row. An empty CSV file with a header line is
   * refused, and so is an empty Parquet file (it is no Parquet file): no warning before their error.
   */
  private void warnEmptyFiles(List<LoadRequest> requests) {
    for (LoadRequest request : requests) {
      for (SourceFile file : request.files()) {
        if (file.size() == 0 && !file.format().carriesSchema()
            && !(file.format() == SourceFormat.CSV && request.text().header())) {
          parent.err().printf("warning: %s is empty (0 bytes): it adds no row to %s%n", display(file.path()),
              request.path());
        }
      }
    }
  }

  private Optional<Character> separator() {
    if (delimiter == null) {
      return Optional.empty();
    }
    if (delimiter.equalsIgnoreCase("tab") || delimiter.equals("\\t")) {
      return Optional.of('\t');
    }
    if (delimiter.length() != 1 || delimiter.charAt(0) == '"' || delimiter.charAt(0) == '\n'
        || delimiter.charAt(0) == '\r') {
      throw new InvalidLoadException("--delimiter '" + delimiter + "' is not one character (other than a quote or a "
          + "line break); write , or ; or tab");
    }
    return Optional.of(delimiter.charAt(0));
  }

  /** Progress on standard error: nothing for a file read within two seconds, then a line every two. */
  private static LoadListener progress(PrintWriter err) {
    long[] started = {0};
    long[] last = {0};
    SourceFile[] current = {null};
    return (file, bytesRead, bytesTotal, rows) -> {
      long now = System.nanoTime();
      if (file != current[0]) {
        current[0] = file;
        started[0] = now;
        last[0] = now;
      }
      if (now - started[0] < PROGRESS_EVERY_NANOS || now - last[0] < PROGRESS_EVERY_NANOS) {
        return;
      }
      last[0] = now;
      err.printf("  reading %s: %d%% (%s of %s), %,d rows%n", file.path().getFileName(),
          bytesTotal == 0 ? 100 : bytesRead * 100 / bytesTotal, megabytes(bytesRead), megabytes(bytesTotal), rows);
      err.flush();
    };
  }

  private static String megabytes(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1_000_000.0);
  }

  private String describe(LoadedTable table) {
    OutputWrites writes = table.writes();
    String what;
    if (writes.created()) {
      what = "created with " + rows(writes.rowsAdded());
    } else if (table.request().mode() == LoadMode.REPLACE) {
      what = "replaced " + rows(writes.rowsDeleted()) + " with " + rows(writes.rowsAdded());
    } else {
      what = "appended " + rows(writes.rowsAdded());
    }
    String files = table.request().files().stream()
        .map(f -> display(f.path())).collect(Collectors.joining(", "));
    return "Loaded " + table.request().path() + " (" + table.resolved().sparkIdentifier() + "): " + what + " from "
        + files + writes.snapshotId().stream().mapToObj(id -> "; snapshot " + id).findFirst().orElse("");
  }

  private String display(Path file) {
    Path directory = parent.workingDirectory();
    return file.startsWith(directory) ? directory.relativize(file).toString() : file.toString();
  }

  private static String rows(long count) {
    return dev.transforms.runtime.Counts.grouped(count, "row");
  }
}
