package dev.transforms.clustertest;

import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Outputs that change shape, on the cluster test's REST catalog and object store: a first build of two
 * outputs appears whole (one snapshot holding the rows, in the REST catalog's multi-table commit); a
 * second version of the transform adds a column, drops one and re-partitions, keeping field ids and time
 * travel; an incremental build that gains a column is refused under {@code FAIL}, leaving the table as it
 * was, and appends the column under {@code APPEND_NEW_COLUMNS}. Last, a branch build of the two outputs
 * leaves {@code main} as it was, and {@code promote} moves both to the branch in one multi-table commit.
 *
 * <p>The transform versions are compiled when the check starts, so that they stay out of the application
 * jar's index (the cluster build builds every transform indexed there). They name no Arrow type (the
 * application jar relocates Arrow, Spark's jars beside it do not): {@link ShapeRows} does the Arrow work.
 * Run it with the JDK's {@code java}:
 *
 * <pre>{@code java -cp "APP.jar:$SPARK_HOME/jars/*" dev.transforms.clustertest.ShapeCheck --config FILE}</pre>
 *
 * ({@code --warehouse DIR} instead runs it on an embedded catalog, to try it without the cluster.)
 */
public final class ShapeCheck {

  static final String PEOPLE_IN = "/Shape/in/people";
  static final String PEOPLE = "/Shape/out/people";
  static final String NAMES = "/Shape/out/names";
  static final String EVENTS = "/Shape/out/events";
  static final Schema INPUT = new Schema(
      Types.NestedField.optional(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()));

  /** The versions of the transforms, by class name: what a pipeline's code became between builds. */
  static final Map<String, String> VERSIONS = Map.of(
      "PeopleV1", """
          @Transform(name = "people")
          public void people(SingleNodeTransformContext ctx, @TableInput("%1$s") IcebergInput in,
              @TableOutput("%2$s") IcebergOutput people, @TableOutput("%3$s") IcebergOutput names) {
            people.writeTable(in.arrow());
            names.writeTable(in.arrow());
          }
          """.formatted(PEOPLE_IN, PEOPLE, NAMES),
      "PeopleV2", """
          @Transform(name = "people")
          public void people(SingleNodeTransformContext ctx, @TableInput("%1$s") IcebergInput in,
              @TableOutput("%2$s") IcebergOutput people, @TableOutput("%3$s") IcebergOutput names) {
            ShapeRows.writeWithNameLength(in.arrow(), people.partitionedBy(spec -> spec.bucket("id", 2)),
                ctx.allocator());
            ShapeRows.writeNamesOnly(in.arrow(), names, ctx.allocator());
          }
          """.formatted(PEOPLE_IN, PEOPLE, NAMES),
      "EventsV1", """
          @Transform(name = "events")
          @Incremental
          public void events(SingleNodeTransformContext ctx, @TableInput("%1$s") IcebergInput in,
              @TableOutput("%2$s") IcebergOutput out) {
            out.writeTable(in.arrow(ReadMode.ADDED));
          }
          """.formatted(PEOPLE_IN, EVENTS),
      "EventsWiderRefused", """
          @Transform(name = "events")
          @Incremental
          public void events(SingleNodeTransformContext ctx, @TableInput("%1$s") IcebergInput in,
              @TableOutput("%2$s") IcebergOutput out) {
            ShapeRows.writeWithNameLength(in.arrow(ReadMode.ADDED), out, ctx.allocator());
          }
          """.formatted(PEOPLE_IN, EVENTS),
      "EventsWider", """
          @Transform(name = "events")
          @Incremental
          public void events(SingleNodeTransformContext ctx, @TableInput("%1$s") IcebergInput in,
              @TableOutput(value = "%2$s", onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS)
              IcebergOutput out) {
            ShapeRows.writeWithNameLength(in.arrow(ReadMode.ADDED), out, ctx.allocator());
          }
          """.formatted(PEOPLE_IN, EVENTS));

  private final List<String> failures = new ArrayList<>();
  private int passed;
  private final Transforms transforms;
  private final Map<String, Class<?>> versions;

  private ShapeCheck(Transforms transforms, Map<String, Class<?>> versions) {
    this.transforms = transforms;
    this.versions = versions;
  }

  /**
   * Runs the checks; exits 1 if one fails.
   *
   * @param args {@code --config FILE} or {@code --warehouse DIR}
   * @throws Exception if the check cannot run
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 2 || !(args[0].equals("--config") || args[0].equals("--warehouse"))) {
      throw new IllegalArgumentException("Usage: ShapeCheck --config FILE | --warehouse DIR");
    }
    boolean file = args[0].equals("--config");
    TransformsConfig config = TransformsConfig.load(file ? Optional.of(Path.of(args[1])) : Optional.empty(),
        file ? Optional.empty() : Optional.of(Path.of(args[1])), System.getenv(), Path.of("").toAbsolutePath());
    Path classes = Files.createTempDirectory("shape-check");
    ShapeCheck check;
    try (Transforms transforms = Transforms.open(config); BufferAllocator allocator = new RootAllocator()) {
      check = new ShapeCheck(transforms, compile(classes));
      check.run(allocator);
    }
    System.out.printf("shapes: %d passed, %d failed%n", check.passed, check.failures.size());
    if (!check.failures.isEmpty()) {
      System.exit(1);
    }
  }

  private void run(BufferAllocator allocator) {
    Table input = createInput(allocator);

    BuildReport first = build("PeopleV1");
    expect("first build of two outputs", first.succeeded(), first::format);
    Table people = table(PEOPLE);
    Table names = table(NAMES);
    for (Table created : List.of(people, names)) {
      expect(created.name() + " appears with one snapshot holding its 3 rows",
          count(created.snapshots()) == 1 && rows(created, null).size() == 3,
          () -> created.snapshots() + " / " + rows(created, null));
    }
    String buildId = people.properties().get(IncrementalState.BUILD_ID);
    expect("both outputs carry the state of the one build", buildId != null
        && buildId.equals(names.properties().get(IncrementalState.BUILD_ID)), people::properties);
    int idField = people.schema().findField("id").fieldId();
    int nameField = people.schema().findField("name").fieldId();
    long before = people.currentSnapshot().snapshotId();

    BuildReport second = build("PeopleV2");
    expect("second version: a column added, one dropped, re-partitioned", second.succeeded(), second::format);
    people = table(PEOPLE);
    names = table(NAMES);
    Table peopleNow = people;
    Table namesNow = names;
    expect("people gains name_length", columns(people.schema()).equals(List.of("id", "name", "name_length")),
        people::schema);
    expect("id and name keep their field ids", people.schema().findField("id").fieldId() == idField
        && people.schema().findField("name").fieldId() == nameField, people::schema);
    expect("people is partitioned by bucket(id, 2)", people.spec().fields().size() == 1
        && people.spec().fields().get(0).transform().toString().equals("bucket[2]"), people::spec);
    expect("names drops id", columns(names.schema()).equals(List.of("name")), names::schema);
    expect("the rows published with the new shape", rows(people, null).size() == 3
        && rows(people, null).contains("1|ann|3"), () -> rows(peopleNow, null));
    Snapshot old = people.snapshot(before);
    expect("time travel to the first build reads its rows and columns",
        columns(people.schemas().get(old.schemaId())).equals(List.of("id", "name"))
            && rows(people, before).equals(List.of("1|ann", "2|bob", "3|cy")), () -> rows(peopleNow, before));
    expect("names still publishes in the same build as people", names.properties().get(IncrementalState.BUILD_ID)
        .equals(people.properties().get(IncrementalState.BUILD_ID)), namesNow::properties);

    BuildReport events = build("EventsV1");
    expect("incremental transform's first build", events.succeeded(), events::format);
    append(input, allocator, 4, "dee", 5, "eve");
    Table eventsBefore = table(EVENTS);
    String shapeBefore = shape(eventsBefore);
    BuildReport refused = build("EventsWiderRefused");
    TransformResult result = refused.results().get(0);
    String message = result.error().map(Throwable::toString).orElse("") + result.error().map(Throwable::getCause)
        .map(Throwable::toString).orElse("");
    expect("an incremental build that gains a column is refused under FAIL",
        result.status() == TransformResult.Status.FAILED && message.contains(EVENTS) && message.contains("name_length"),
        refused::format);
    expect("the refused build leaves the output as it was: rows, schema, spec, state, no branch",
        shape(table(EVENTS)).equals(shapeBefore), () -> shapeBefore + " became " + shape(table(EVENTS)));
    BuildReport widened = build("EventsWider");
    TransformResult wider = widened.results().get(0);
    expect("under APPEND_NEW_COLUMNS it builds incrementally and adds the column",
        wider.status() == TransformResult.Status.SUCCEEDED && wider.incremental(), widened::format);
    Table eventsNow = table(EVENTS);
    expect("earlier rows read the new column as null", rows(eventsNow, null).equals(
        List.of("1|ann|null", "2|bob|null", "3|cy|null", "4|dee|3", "5|eve|3")), () -> rows(eventsNow, null));

    branchThenPromote(input, allocator);
  }

  /**
   * A branch build of the two outputs reads the input's new row at {@code main} (the input has no branch),
   * publishes to branch {@code try} only, and {@code promote} then fast-forwards {@code main} of both.
   */
  private void branchThenPromote(Table input, BufferAllocator allocator) {
    append(input, allocator, 6, "fay");
    long peopleMain = table(PEOPLE).currentSnapshot().snapshotId();
    long namesMain = table(NAMES).currentSnapshot().snapshotId();
    List<String> peopleRows = rows(table(PEOPLE), null);
    Transforms.Selection people = Transforms.Selection.of(versions.get("PeopleV2"));
    BuildReport onBranch = transforms.build(people.branch("try"));
    expect("a branch build of the two outputs", onBranch.succeeded(), onBranch::format);
    Table peopleNow = table(PEOPLE);
    Table namesNow = table(NAMES);
    expect("main of both outputs is as it was", peopleNow.currentSnapshot().snapshotId() == peopleMain
        && namesNow.currentSnapshot().snapshotId() == namesMain && rows(peopleNow, null).equals(peopleRows),
        () -> peopleNow.refs() + " / " + namesNow.refs() + " / " + rows(peopleNow, null));
    long head = peopleNow.refs().containsKey("try") ? peopleNow.refs().get("try").snapshotId() : -1;
    expect("branch try of people holds the new row", head > 0 && rows(peopleNow, head).contains("6|fay|3"),
        peopleNow::refs);
    List<String> promoted = transforms.promote(people, "try");
    Table peopleAfter = table(PEOPLE);
    Table namesAfter = table(NAMES);
    expect("promote moves main of both outputs to the branch and removes it", promoted.size() == 2
        && peopleAfter.currentSnapshot().snapshotId() == head && !peopleAfter.refs().containsKey("try")
        && !namesAfter.refs().containsKey("try") && rows(namesAfter, null).contains("fay"),
        () -> promoted + " / " + peopleAfter.refs() + " / " + rows(namesAfter, null));
  }

  private BuildReport build(String version) {
    return transforms.build(Transforms.Selection.of(versions.get(version)));
  }

  private Table table(String path) {
    var resolved = transforms.resolve(path);
    return transforms.catalog(resolved.catalog()).loadTable(resolved.identifier());
  }

  private Table createInput(BufferAllocator allocator) {
    var resolved = transforms.resolve(PEOPLE_IN);
    Catalog catalog = transforms.catalog(resolved.catalog());
    Namespace namespace = resolved.identifier().namespace();
    for (int depth = 1; depth <= namespace.length(); depth++) {
      Namespace level = Namespace.of(java.util.Arrays.copyOf(namespace.levels(), depth));
      if (!((SupportsNamespaces) catalog).namespaceExists(level)) {
        ((SupportsNamespaces) catalog).createNamespace(level);
      }
    }
    Table table = catalog.createTable(TableIdentifier.of(namespace, resolved.identifier().name()), INPUT);
    append(table, allocator, 1, "ann", 2, "bob", 3, "cy");
    return table;
  }

  private static void append(Table table, BufferAllocator allocator, Object... idsAndNames) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(INPUT), allocator)) {
      root.allocateNew();
      BigIntVector ids = (BigIntVector) root.getVector("id");
      VarCharVector names = (VarCharVector) root.getVector("name");
      int n = idsAndNames.length / 2;
      for (int i = 0; i < n; i++) {
        ids.setSafe(i, ((Integer) idsAndNames[2 * i]).longValue());
        names.setSafe(i, ((String) idsAndNames[2 * i + 1]).getBytes(StandardCharsets.UTF_8));
      }
      root.setRowCount(n);
      table.refresh();
      AppendFiles append = table.newAppend();
      ArrowTableWriter.writeDataFiles(table, root).forEach(append::appendFile);
      append.commit();
    }
  }

  private void expect(String what, boolean holds, Supplier<Object> otherwise) {
    if (holds) {
      passed++;
      System.out.println("PASS " + what);
    } else {
      failures.add(what);
      System.out.println("FAIL " + what + ": " + otherwise.get());
    }
  }

  /** What a reader of a table sees of it: current snapshot, schema, spec, properties, refs. */
  private static String shape(Table table) {
    return table.currentSnapshot().snapshotId() + " " + table.schema() + " " + table.spec() + " "
        + new java.util.TreeMap<>(table.properties()) + " " + table.refs().keySet();
  }

  private static int count(Iterable<?> items) {
    int n = 0;
    for (Object ignored : items) {
      n++;
    }
    return n;
  }

  private static List<String> columns(Schema schema) {
    return schema.columns().stream().map(Types.NestedField::name).toList();
  }

  /** The rows at a snapshot (the current one for null), values joined by {@code |}, sorted. */
  private static List<String> rows(Table table, Long snapshot) {
    List<String> rows = new ArrayList<>();
    IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
    if (snapshot != null) {
      scan = scan.useSnapshot(snapshot);
    }
    try (CloseableIterable<Record> records = scan.build()) {
      for (Record record : records) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < record.size(); i++) {
          values.add(String.valueOf(record.get(i)));
        }
        rows.add(String.join("|", values));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    rows.sort(null);
    return rows;
  }

  /** Writes, compiles and loads the versions, one class each, against this JVM's class path. */
  private static Map<String, Class<?>> compile(Path folder) throws IOException, ClassNotFoundException {
    List<String> sources = new ArrayList<>();
    for (Map.Entry<String, String> version : VERSIONS.entrySet()) {
      Path file = folder.resolve("shapes").resolve(version.getKey() + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, """
          package shapes;

          import dev.transforms.api.Incremental;
          import dev.transforms.api.ReadMode;
          import dev.transforms.api.SchemaChangePolicy;
          import dev.transforms.api.TableInput;
          import dev.transforms.api.TableOutput;
          import dev.transforms.api.Transform;
          import dev.transforms.clustertest.ShapeRows;
          import dev.transforms.singlenode.IcebergInput;
          import dev.transforms.singlenode.IcebergOutput;
          import dev.transforms.singlenode.SingleNodeTransformContext;

          public class %s {
          %s}
          """.formatted(version.getKey(), version.getValue().indent(2)));
      sources.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException("ShapeCheck compiles its transforms: run it with a JDK's java, not a JRE's");
    }
    List<String> arguments = new ArrayList<>(List.of("-proc:none", "-classpath", System.getProperty("java.class.path"),
        "-d", folder.toString()));
    arguments.addAll(sources);
    if (javac.run(null, null, null, arguments.toArray(String[]::new)) != 0) {
      throw new IllegalStateException("the transform versions did not compile");
    }
    URLClassLoader loader = new URLClassLoader(new URL[] {folder.toUri().toURL()}, ShapeCheck.class.getClassLoader());
    Map<String, Class<?>> classes = new java.util.HashMap<>();
    for (String name : VERSIONS.keySet()) {
      classes.put(name, loader.loadClass("shapes." + name));
    }
    return classes;
  }
}
