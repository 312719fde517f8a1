package dev.transforms.testing;

import dev.transforms.runtime.ResolvedTable;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.spi.CommittedFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;

/**
 * A temporary warehouse, with the embedded catalog or the catalogs of a configuration, for one test
 * class (or one test): create input tables, run transforms through the real runtime, and read what
 * they wrote.
 *
 * <p>Get one by declaring a {@code TestWarehouse} field or test parameter in a class annotated
 * {@link TransformsTest}, which also closes it. Builds go through {@link Transforms#build}, the code path of
 * the command line. A warehouse made with a constructor is the caller's to close, and a Spark build on
 * it starts a session that lives until the JVM exits: prefer the annotation.
 *
 * <pre>{@code
 * @TransformsTest
 * class EditRowsTest {
 *   TestWarehouse warehouse;
 *
 *   @Test
 *   void seedsTheOutputOnTheFirstBuild() {
 *     warehouse.createTable("/Examples/iceberg/row-updates", SCHEMA, Row.of(1L, "2026-04-02", "Stale"));
 *     warehouse.build(EditRows.class).assertSucceeded();
 *     assertThatTable(warehouse.table("/Examples/iceberg/edited-spark"))
 *         .containsExactlyInAnyOrder(Row.of(1L, LocalDate.of(2026, 4, 2), "Stale"));
 *   }
 * }
 * }</pre>
 */
public final class TestWarehouse implements AutoCloseable {

  private final Path location;
  private final TransformsConfig config;
  private final Transforms transforms;
  private Supplier<Object> sparkStarter = () -> SharedSpark.fallback().session();
  private Object sparkSession;
  /** The tables to drop on close, for a warehouse whose catalogs may outlive its folder; null otherwise. */
  private Set<String> owned;

  /**
   * Opens a warehouse in a folder with the embedded catalog.
   *
   * @param location the warehouse folder; created if needed
   */
  public TestWarehouse(Path location) {
    this(TransformsConfig.embedded(location));
  }

  /**
   * Opens a warehouse with any configuration (a REST catalog in an integration test, say).
   *
   * @param config the configuration
   */
  public TestWarehouse(TransformsConfig config) {
    this.location = config.warehouse();
    this.config = config;
    this.transforms = Transforms.open(config);
  }

  /**
   * A warehouse that drops, when it closes, every table it created or built: for a configuration whose
   * catalogs may live outside the temporary folder (a REST or Hive catalog, a shared database).
   *
   * @param config the configuration
   * @return the warehouse
   */
  static TestWarehouse owning(TransformsConfig config) {
    TestWarehouse warehouse = new TestWarehouse(config);
    warehouse.owned = new LinkedHashSet<>();
    return warehouse;
  }

  /**
   * The warehouse folder.
   *
   * @return the folder
   */
  public Path location() {
    return location;
  }

  /**
   * The configuration builds use.
   *
   * @return the configuration
   */
  public TransformsConfig config() {
    return config;
  }

  /**
   * The catalog a dataset path lives in.
   *
   * @param path a dataset path
   * @return its Iceberg catalog
   */
  public Catalog catalog(String path) {
    return transforms.catalog(resolve(path).catalog());
  }

  /**
   * Where a dataset path resolves.
   *
   * @param path a dataset path
   * @return the catalog table
   */
  public ResolvedTable resolve(String path) {
    return transforms.resolve(path);
  }

  /**
   * Whether a table exists at a path.
   *
   * @param path a dataset path
   * @return whether the table exists
   */
  public boolean exists(String path) {
    return catalog(path).tableExists(resolve(path).identifier());
  }

  /**
   * The table at a path, freshly loaded.
   *
   * @param path a dataset path
   * @return the table
   * @throws org.apache.iceberg.exceptions.NoSuchTableException if there is none
   */
  public Table table(String path) {
    return catalog(path).loadTable(resolve(path).identifier());
  }

  /**
   * Every row of the table at a path, in no particular order.
   *
   * @param path a dataset path
   * @return the rows
   */
  public List<Row> rows(String path) {
    return TableRows.read(table(path), null);
  }

  /**
   * Every row of the table at a path on a branch, such as one a branch build published to
   * ({@code build(Transforms.Selection.of(...).branch("dev"))}; see {@code docs/branches.md}).
   *
   * @param path a dataset path
   * @param branch the branch, or {@code main}
   * @return the rows
   * @throws IllegalArgumentException naming the table and the branch, if the table has no such branch
   */
  public List<Row> rows(String path, String branch) {
    Table table = table(path);
    org.apache.iceberg.SnapshotRef ref = table.refs().get(branch);
    if (ref == null) {
      throw new IllegalArgumentException("Table " + path + " has no branch " + branch + "; it has "
          + new java.util.TreeSet<>(table.refs().keySet()));
    }
    return TableRows.read(table, ref.snapshotId());
  }

  /**
   * Promotes a branch as {@code transforms promote NAME} does: every output of the selection built on it
   * gets its {@code main} fast-forwarded to the branch.
   *
   * @param selection the transforms whose outputs to promote
   * @param branch the branch
   * @return the paths promoted
   * @throws dev.transforms.api.PublishConflictException naming the tables where {@code main} moved since
   *     the branch was cut; nothing is promoted
   */
  public List<String> promote(Transforms.Selection selection, String branch) {
    return transforms.promote(selection, branch);
  }

  /**
   * Creates an unpartitioned table holding rows.
   *
   * @param path the dataset path
   * @param schema the table's schema
   * @param rows rows, values in column order, converted to the column types
   * @return the table
   * @throws IllegalArgumentException if a row does not fit the schema, naming the row and column
   */
  public Table createTable(String path, Schema schema, Row... rows) {
    return createTable(path, schema, PartitionSpec.unpartitioned(), Map.of(), Arrays.asList(rows));
  }

  /**
   * Creates a table holding rows.
   *
   * @param path the dataset path
   * @param schema the table's schema
   * @param spec the partition spec, built on {@code schema}
   * @param properties table properties, such as {@code write.delete.mode}
   * @param rows rows, values in column order
   * @return the table
   */
  public Table createTable(String path, Schema schema, PartitionSpec spec, Map<String, String> properties,
      List<Row> rows) {
    // Check every row before creating anything, so a bad fixture leaves no half-made table behind.
    rows.forEach(row -> TableRows.toRecord(schema, row));
    ResolvedTable resolved = resolve(path);
    Catalog catalog = catalog(path);
    createNamespace(catalog, resolved.identifier().namespace());
    Table table = catalog.createTable(resolved.identifier(), schema, spec, properties);
    remember(List.of(path));
    if (!rows.isEmpty()) {
      commit(table, TableRows.write(table, rows));
    }
    return catalog.loadTable(resolved.identifier());
  }

  /**
   * Creates a table from a CSV resource on the test classpath. The first line names the columns; each
   * must be a column of the schema. Values are converted to the column types; an empty field is null.
   *
   * @param path the dataset path
   * @param schema the declared schema
   * @param resource a classpath resource, such as {@code "row-updates.csv"}
   * @return the table
   * @throws IllegalArgumentException if the resource is missing or a value does not fit its column
   */
  public Table createTableFromCsv(String path, Schema schema, String resource) {
    return createTable(path, schema, PartitionSpec.unpartitioned(), Map.of(), readCsv(schema, resource));
  }

  /**
   * Appends rows to the table at a path, as one snapshot (operation {@code append}).
   *
   * @param path the dataset path
   * @param rows the rows
   * @return the table after the append
   */
  public Table append(String path, Row... rows) {
    Table table = table(path);
    commit(table, TableRows.write(table, Arrays.asList(rows)));
    return table(path);
  }

  /**
   * Replaces every row of the table at a path with the given rows, as one snapshot (operation
   * {@code overwrite}), as an upstream that rewrites its data would. An incremental consumer of the
   * table falls back to a full build after this.
   *
   * @param path the dataset path
   * @param rows the new rows
   * @return the table after the overwrite
   */
  public Table overwrite(String path, Row... rows) {
    Table table = table(path);
    OverwriteFiles overwrite = table.newOverwrite().overwriteByRowFilter(Expressions.alwaysTrue());
    List<DataFile> files = TableRows.write(table, Arrays.asList(rows));
    files.forEach(overwrite::addFile);
    CommittedFiles.check(overwrite, table, files);
    overwrite.commit();
    return table(path);
  }

  /** Creates each missing level of a namespace, outer first; a catalog without namespaces needs none. */
  private static void createNamespace(Catalog catalog, Namespace namespace) {
    if (catalog instanceof SupportsNamespaces namespaces) {
      for (int depth = 1; depth <= namespace.levels().length; depth++) {
        Namespace level = Namespace.of(Arrays.copyOf(namespace.levels(), depth));
        if (!namespaces.namespaceExists(level)) {
          namespaces.createNamespace(level);
        }
      }
    }
  }

  private static void commit(Table table, List<DataFile> files) {
    AppendFiles append = table.newAppend();
    files.forEach(append::appendFile);
    CommittedFiles.check(append, table, files);
    append.commit();
  }

  /**
   * Builds every transform of the given classes, in dependency order, through the real runtime.
   *
   * @param transformClasses classes holding {@code @Transform} methods
   * @return the build's result
   */
  public BuildResult build(Class<?>... transformClasses) {
    return run(Transforms.Selection.of(transformClasses));
  }

  /**
   * Builds some transforms of the given classes and everything upstream of them.
   *
   * @param transformClasses classes holding {@code @Transform} methods
   * @param transforms names of the transforms to build
   * @return the build's result
   */
  public BuildResult build(List<Class<?>> transformClasses, String... transforms) {
    return run(Transforms.Selection.of(transformClasses).only(List.of(transforms)));
  }

  /**
   * Builds a selection through the real runtime, with whatever the selection asks: for a transform
   * that is up to date but must run again ({@code force()}, after the test changed what it does by a
   * static field, say), transforms run one by one in plan order ({@code threads(1)}), a full build
   * ({@code full()}), some transforms by name ({@code only(...)}), or a listener that hears the progress.
   *
   * <pre>{@code
   * warehouse.build(Transforms.Selection.of(EditRows.class).force()).assertSucceeded();
   * warehouse.build(Transforms.Selection.of(Pipeline.class).threads(1)).assertSucceeded();
   * warehouse.build(Transforms.Selection.of(Pipeline.class).branch("dev")).assertSucceeded();
   * }</pre>
   *
   * @param selection which transforms, and how to build them
   * @return the build's result
   * @throws dev.transforms.api.InvalidTransformException if a declaration is invalid
   * @throws dev.transforms.api.PlanException if the transforms cannot be ordered, or a name given
   *     matches none or several
   */
  public BuildResult build(Transforms.Selection selection) {
    return run(Objects.requireNonNull(selection, "selection"));
  }

  /**
   * A Spark session whose catalogs are this warehouse's, for queries in tests. Starts the test JVM's
   * shared session if it is not running yet.
   *
   * @return the session; needs {@code org.apache.spark:spark-sql_2.12} and {@code sdk-spark} on the
   *     test classpath
   */
  public org.apache.spark.sql.SparkSession sparkSession() {
    if (sparkSession == null) {
      sparkSession = dev.transforms.spark.SparkSessions.forBuild(
          (org.apache.spark.sql.SparkSession) sparkStarter.get(), config);
    }
    return (org.apache.spark.sql.SparkSession) sparkSession;
  }

  /** Lets the extension keep the shared Spark session in JUnit's root store. */
  void useSparkStarter(Supplier<Object> starter) {
    this.sparkStarter = starter;
  }

  private BuildResult run(Transforms.Selection selection) {
    if (selection.engines().contains("spark")) {
      // The engine reuses a running session; without one it would start and stop Spark for this build.
      sparkStarter.get();
    }
    remember(selection.tableOutputs());
    return new BuildResult(transforms.build(selection));
  }

  private void remember(List<String> paths) {
    if (owned != null) {
      owned.addAll(paths);
    }
  }

  private static List<Row> readCsv(Schema schema, String resource) {
    InputStream stream = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource);
    if (stream == null) {
      throw new IllegalArgumentException("CSV resource " + resource + " is not on the test classpath; put it in "
          + "src/test/resources/" + resource);
    }
    List<Row> rows = new ArrayList<>();
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
      String header = reader.readLine();
      if (header == null) {
        throw new IllegalArgumentException("CSV resource " + resource + " is empty; its first line must name the columns");
      }
      List<String> names = Csv.split(header);
      List<Types.NestedField> columns = new ArrayList<>();
      for (String name : names) {
        Types.NestedField column = schema.findField(name.strip());
        if (column == null) {
          throw new IllegalArgumentException("CSV resource " + resource + " has column '" + name.strip()
              + "', which is not in the schema; columns: " + schema.columns().stream().map(Types.NestedField::name).toList());
        }
        columns.add(column);
      }
      String line;
      int number = 1;
      while ((line = reader.readLine()) != null) {
        number++;
        if (line.isBlank()) {
          continue;
        }
        List<String> fields = Csv.split(line);
        if (fields.size() != columns.size()) {
          throw new IllegalArgumentException("Line " + number + " of " + resource + " has " + fields.size()
              + " fields, but the header names " + columns.size());
        }
        Object[] values = new Object[schema.columns().size()];
        for (int i = 0; i < columns.size(); i++) {
          Types.NestedField column = columns.get(i);
          String field = fields.get(i);
          values[schema.columns().indexOf(column)] = field.isEmpty() ? null
              : TableRows.convert(column, field, "line " + number + " of " + resource);
        }
        rows.add(Row.of(values));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /**
   * Closes the catalogs and the Spark catalogs of this warehouse. A warehouse made by
   * {@code @TransformsTest(config = ...)} first drops every table it created or built, so that catalogs
   * outside the temporary folder are left as they were found.
   */
  @Override
  public void close() {
    if (owned != null) {
      for (String path : owned) {
        try {
          if (exists(path)) {
            catalog(path).dropTable(resolve(path).identifier(), true);
          }
        } catch (RuntimeException e) {
          // Best effort: a catalog that is gone has nothing left to drop.
        }
      }
    }
    if (sparkSession != null) {
      dev.transforms.spark.SparkSessions.closeCatalogs((org.apache.spark.sql.SparkSession) sparkSession,
          config.catalogs().keySet());
    }
    transforms.close();
  }
}
