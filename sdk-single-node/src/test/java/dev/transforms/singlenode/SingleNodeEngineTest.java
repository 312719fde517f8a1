package dev.transforms.singlenode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.Incremental;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The single-node engine through the real build runner, on the embedded catalog. */
public class SingleNodeEngineTest {

  static final TableIdentifier SOURCE = TableIdentifier.of(Namespace.of("src"), "people");
  static final TableIdentifier OUT = TableIdentifier.of(Namespace.of("out"), "people");
  static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()));

  @TempDir Path warehouse;
  Transforms runner;
  Catalog catalog;
  Table source;

  @BeforeEach
  void setUp() {
    runner = Transforms.open(TransformsConfig.embedded(warehouse));
    catalog = runner.catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    source = catalog.createTable(SOURCE, SCHEMA);
    append(source, 1, 2, 3);
    Copy.sawNoTable = null;
    Compare.seen.clear();
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  static void append(Table table, long... ids) {
    try (BufferAllocator allocator = new RootAllocator()) {
      AppendFiles append = table.newAppend();
      dataFiles(table, allocator, ids).forEach(append::appendFile);
      append.commit();
    }
  }

  /** Writes rows {@code (id, "n" + id)} as data files of a table, uncommitted. */
  static List<DataFile> dataFiles(Table table, BufferAllocator allocator, long... ids) {
    List<Record> records = new ArrayList<>();
    for (long id : ids) {
      GenericRecord record = GenericRecord.create(table.schema());
      record.setField("id", id);
      record.setField("name", "n" + id);
      records.add(record);
    }
    try (VectorSchemaRoot root = ArrowRecords.toRoot(records, table.schema(), allocator)) {
      return ArrowTableWriter.writeDataFiles(table, root);
    }
  }

  static TreeMap<Long, String> rows(Table table) {
    table.refresh();
    TreeMap<Long, String> rows = new TreeMap<>();
    if (table.currentSnapshot() == null) {
      return rows;
    }
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record r : records) {
        assertThat(rows.put((Long) r.getField("id"), (String) r.getField("name"))).isNull();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  static TreeMap<Long, String> expected(long... ids) {
    TreeMap<Long, String> rows = new TreeMap<>();
    for (long id : ids) {
      rows.put(id, "n" + id);
    }
    return rows;
  }

  BuildReport build(Class<?> transforms) {
    return runner.build(transforms);
  }

  static TransformResult only(BuildReport report) {
    assertThat(report.results()).hasSize(1);
    return report.results().get(0);
  }

  static String error(BuildReport report) {
    TransformResult result = only(report);
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    StringBuilder text = new StringBuilder();
    for (Throwable t = result.error().orElseThrow(); t != null; t = t.getCause()) {
      text.append(t.getMessage()).append('\n');
    }
    return text.toString();
  }

  /** Copies the whole input. */
  /** Copies into a table partitioned by a bucket of the id. */
  public static class PartitionedCopy {
    @Transform(name = "copy")
    public void copy(@TableInput("/src/people") IcebergInput in, @TableOutput("/out/people") IcebergOutput out) {
      out.partitionedBy(spec -> spec.bucket("id", 2)).writeTable(in.arrow());
    }
  }

  /** Asks for a partition column that does not exist. */
  public static class BadPartitioning {
    @Transform(name = "copy")
    public void copy(@TableInput("/src/people") IcebergInput in, @TableOutput("/out/people") IcebergOutput out) {
      out.partitionedBy(spec -> spec.day("created_at")).writeTable(in.arrow());
    }
  }

  @Test
  void partitionedByShapesTheCreatedTableAndGuardsItsPartitioningAfterwards() {
    assertThat(only(build(PartitionedCopy.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    Table out = catalog.loadTable(OUT);
    assertThat(out.spec().fields()).singleElement().satisfies(f -> assertThat(f.transform().toString()).isEqualTo("bucket[2]"));
    assertThat(rows(out)).isEqualTo(expected(1, 2, 3));
    int files = 0;
    for (var ignored : out.currentSnapshot().addedDataFiles(out.io())) {
      files++;
    }
    assertThat(files).isEqualTo(2);

    // Nothing changed: the next build skips it; forced, the same spec is fine. A full build re-partitions a
    // table created unpartitioned, in the commit that publishes its rows; time travel still reads the rows
    // as they were laid out.
    assertThat(only(build(PartitionedCopy.class)).status()).isEqualTo(TransformResult.Status.UP_TO_DATE);
    assertThat(only(Builds.forced(runner, PartitionedCopy.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    catalog.dropTable(OUT, true);
    assertThat(only(build(Copy.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    long unpartitioned = catalog.loadTable(OUT).currentSnapshot().snapshotId();
    TransformResult repartitioned = only(build(PartitionedCopy.class));
    assertThat(repartitioned.status()).as(String.valueOf(repartitioned.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    Table after = catalog.loadTable(OUT);
    assertThat(after.spec().fields()).singleElement()
        .satisfies(f -> assertThat(f.transform().toString()).isEqualTo("bucket[2]"));
    assertThat(rows(after)).isEqualTo(expected(1, 2, 3));
    assertThat(after.currentSnapshot().parentId()).isEqualTo(unpartitioned);
    try (CloseableIterable<Record> before = IcebergGenerics.read(after).useSnapshot(unpartitioned).build()) {
      assertThat(before).hasSize(3);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void anUnknownPartitionColumnNamesTheOutputAndTheColumns() {
    TransformResult result = only(build(BadPartitioning.class));
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.error().orElseThrow().getCause())
        .hasMessageStartingWith("Cannot partition output /out/people: ")
        .hasMessageContaining("created_at")
        .hasMessageEndingWith("; columns: [id, name]");
    assertThat(catalog.tableExists(OUT)).isFalse();
  }

  public static class Copy {
    static Boolean sawNoTable;

    @Transform(name = "copy")
    public void copy(@TableInput("/src/people") IcebergInput in, @TableOutput("/out/people") IcebergOutput out) {
      if (sawNoTable == null) {
        sawNoTable = out.table().isEmpty();
      }
      out.writeTable(in.arrow());
    }
  }

  @Test
  void firstBuildCreatesTheTableFromArrowAndSecondBuildReplacesIt() {
    assertThat(build(Copy.class).succeeded()).isTrue();
    assertThat(Copy.sawNoTable).isTrue();
    Table out = catalog.loadTable(OUT);
    assertThat(out.schema().asStruct()).isEqualTo(SCHEMA.asStruct());
    assertThat(rows(out)).isEqualTo(expected(1, 2, 3));

    append(source, 4);
    BuildReport second = build(Copy.class);
    assertThat(second.succeeded()).isTrue();
    assertThat(only(second).incremental()).isFalse();
    out.refresh();
    assertThat(rows(out)).isEqualTo(expected(1, 2, 3, 4));
    Snapshot head = out.currentSnapshot();
    assertThat(head.operation()).isEqualTo("overwrite");
    assertThat(head.summary()).containsEntry("added-records", "4").containsEntry("deleted-records", "3");
    assertThat(out.properties())
        .containsEntry("transforms.state.input./src/people", Long.toString(source.currentSnapshot().snapshotId()));
    assertThat(out.refs()).containsOnlyKeys("main");
  }

  /** Copies only the rows added since the last build. */
  public static class IncrementalCopy {
    static final List<Boolean> incremental = new ArrayList<>();

    @Transform(name = "incremental_copy")
    @Incremental(semanticVersion = 1)
    public void copy(SingleNodeTransformContext ctx, @TableInput("/src/people") IcebergInput in,
        @TableOutput("/out/people") IcebergOutput out) {
      incremental.add(ctx.isIncremental());
      out.writeTable(in.addedRows());
    }
  }

  @Test
  void incrementalBuildAppendsOnlyTheNewRows() {
    IncrementalCopy.incremental.clear();
    assertThat(build(IncrementalCopy.class).succeeded()).isTrue();
    Table out = catalog.loadTable(OUT);
    assertThat(rows(out)).isEqualTo(expected(1, 2, 3));

    append(source, 4, 5);
    source.refresh();
    BuildReport second = build(IncrementalCopy.class);
    assertThat(second.succeeded()).isTrue();
    assertThat(only(second).incremental()).isTrue();
    assertThat(IncrementalCopy.incremental).containsExactly(false, true);
    assertThat(rows(out)).isEqualTo(expected(1, 2, 3, 4, 5));
    Snapshot head = out.currentSnapshot();
    assertThat(head.operation()).isEqualTo("append");
    assertThat(head.summary()).containsEntry("added-records", "2");
    assertThat(out.properties())
        .containsEntry("transforms.state.input./src/people", Long.toString(source.currentSnapshot().snapshotId()));

    // Nothing new upstream: an incremental build adds nothing.
    BuildReport third = build(IncrementalCopy.class);
    assertThat(third.succeeded()).isTrue();
    assertThat(rows(out)).isEqualTo(expected(1, 2, 3, 4, 5));
  }

  /** Writes the rows whose ids are new between the previous and the current input snapshot. */
  public static class Compare {
    static final List<String> seen = new ArrayList<>();

    @Transform(name = "compare")
    public void compare(@TableInput("/src/people") IcebergInput in, @TableOutput("/out/people") IcebergOutput out) {
      OptionalLong previous = in.previousSnapshotId();
      seen.add(previous.isPresent() ? "previous" : "first");
      if (previous.isEmpty()) {
        out.writeTable(in.arrow());
        return;
      }
      VectorSchemaRoot before = in.scan(org.apache.iceberg.expressions.Expressions.alwaysTrue(), previous, List.of("id"));
      Set<Long> old = new HashSet<>();
      BigIntVector oldIds = (BigIntVector) before.getVector("id");
      for (int i = 0; i < before.getRowCount(); i++) {
        old.add(oldIds.get(i));
      }
      List<Long> fresh = new ArrayList<>();
      VectorSchemaRoot now = in.arrow();
      BigIntVector ids = (BigIntVector) now.getVector("id");
      for (int i = 0; i < now.getRowCount(); i++) {
        if (!old.contains(ids.get(i))) {
          fresh.add(ids.get(i));
        }
      }
      var filter = org.apache.iceberg.expressions.Expressions.in("id", fresh.toArray());
      out.writeTable(in.scan(filter, OptionalLong.empty(), List.of()));
    }
  }

  @Test
  void snapshotComparisonWritesAllRowsFirstThenOnlyNewIds() {
    assertThat(build(Compare.class).succeeded()).isTrue();
    Table out = catalog.loadTable(OUT);
    assertThat(rows(out)).isEqualTo(expected(1, 2, 3));
    append(source, 7, 8);
    assertThat(build(Compare.class).succeeded()).isTrue();
    assertThat(Compare.seen).containsExactly("first", "previous");
    assertThat(rows(out)).isEqualTo(expected(7, 8));
  }

  /** Appends through the native table, then fails. */
  public static class NativeThenThrow {
    @Transform(name = "copy")
    public void copy(SingleNodeTransformContext ctx, @TableInput("/src/people") IcebergInput in,
        @TableOutput("/out/people") IcebergOutput out) {
      Table table = out.table().orElseThrow();
      AppendFiles append = table.newAppend();
      dataFiles(table, ctx.allocator(), 99).forEach(append::appendFile);
      append.commit();
      // The write is visible on the staging branch through the same handle...
      assertThat(rows(table)).containsKey(99L);
      throw new IllegalStateException("boom after a native append");
    }
  }

  /** Appends through the native table. */
  public static class NativeAppend {
    @Transform(name = "copy")
    public void copy(SingleNodeTransformContext ctx, @TableInput("/src/people") IcebergInput in,
        @TableOutput("/out/people") IcebergOutput out) {
      Table table = out.table().orElseThrow();
      AppendFiles append = table.newAppend();
      dataFiles(table, ctx.allocator(), 42).forEach(append::appendFile);
      append.commit();
    }
  }

  @Test
  void nativeWritesAreStagedAndDiscardedWhenTheMethodThrows() {
    assertThat(build(Copy.class).succeeded()).isTrue();
    Table out = catalog.loadTable(OUT);
    long before = out.currentSnapshot().snapshotId();

    BuildReport failed = build(NativeThenThrow.class);
    assertThat(error(failed)).contains("boom after a native append");
    out.refresh();
    assertThat(out.currentSnapshot().snapshotId()).isEqualTo(before);
    assertThat(rows(out)).isEqualTo(expected(1, 2, 3));
    assertThat(out.refs()).containsOnlyKeys("main");

    BuildReport ok = build(NativeAppend.class);
    assertThat(ok.succeeded()).isTrue();
    out.refresh();
    assertThat(rows(out)).isEqualTo(expected(1, 2, 3, 42));
    assertThat(out.currentSnapshot().summary()).containsEntry("transforms.transform", "copy");
  }

  /** Appends through the native table a file that it then deletes, as a faulty writer would. */
  public static class AppendOfAMissingFile {
    @Transform(name = "copy")
    public void copy(SingleNodeTransformContext ctx, @TableInput("/src/people") IcebergInput in,
        @TableOutput("/out/people") IcebergOutput out) {
      Table table = out.table().orElseThrow();
      AppendFiles append = table.newAppend();
      List<DataFile> files = dataFiles(table, ctx.allocator(), 77);
      files.forEach(append::appendFile);
      append.commit();
      table.io().deleteFile(files.get(0).location());
    }
  }

  /** Writes a new output, then appends through the native table a file that it deletes. */
  public static class NewOutputMissingAFile {
    @Transform(name = "copy")
    public void copy(SingleNodeTransformContext ctx, @TableInput("/src/people") IcebergInput in,
        @TableOutput("/out/people") IcebergOutput out) {
      out.writeTable(in.arrow());
      Table table = out.table().orElseThrow();
      AppendFiles append = table.newAppend();
      List<DataFile> files = dataFiles(table, ctx.allocator(), 78);
      files.forEach(append::appendFile);
      append.commit();
      table.io().deleteFile(files.get(0).location());
    }
  }

  @Test
  void aStagedFileThatIsGoneFailsThePublicationNamingItAndPublishesNothing() {
    assertThat(build(Copy.class).succeeded()).isTrue();
    Table out = catalog.loadTable(OUT);
    long before = out.currentSnapshot().snapshotId();

    String error = error(build(AppendOfAMissingFile.class));

    assertThat(error).contains("Cannot commit to table /out/people").contains("that the commit adds is missing")
        .contains(".parquet").contains("Nothing was committed");
    out.refresh();
    assertThat(out.currentSnapshot().snapshotId()).isEqualTo(before);
    assertThat(rows(out)).isEqualTo(expected(1, 2, 3));
    assertThat(out.refs()).containsOnlyKeys("main");
  }

  @Test
  void aNewOutputMissingAFileIsNotCreated() {
    String error = error(build(NewOutputMissingAFile.class));

    assertThat(error).contains("Cannot commit to table /out/people").contains("is missing");
    assertThat(catalog.tableExists(OUT)).isFalse();
  }

  /** Allocates a vector and forgets to close it. */
  public static class Leaky {
    @Transform(name = "copy")
    public void copy(SingleNodeTransformContext ctx, @TableInput("/src/people") IcebergInput in,
        @TableOutput("/out/people") IcebergOutput out) {
      IntVector forgotten = new IntVector("forgotten", ctx.allocator());
      forgotten.allocateNew(16);
      out.writeTable(in.arrow());
    }
  }

  @Test
  void aLeakFailsTheTransformAndPublishesNothing() {
    BuildReport report = build(Leaky.class);
    assertThat(error(report)).contains("leaked").contains("Arrow memory");
    assertThat(catalog.tableExists(OUT)).isFalse();
  }

  /** Writes data of another shape. */
  public static class WrongShape {
    @Transform(name = "copy")
    public void copy(SingleNodeTransformContext ctx, @TableInput("/src/people") IcebergInput in,
        @TableOutput("/out/people") IcebergOutput out) {
      BufferAllocator allocator = ctx.allocator();
      try (VarCharVector id = new VarCharVector("id", allocator);
          IntVector age = new IntVector("age", allocator)) {
        id.allocateNew();
        id.setSafe(0, "x".getBytes(StandardCharsets.UTF_8));
        age.allocateNew();
        age.setSafe(0, 5);
        id.setValueCount(1);
        age.setValueCount(1);
        try (VectorSchemaRoot root = VectorSchemaRoot.of(id, age)) {
          out.writeTable(root);
        }
      }
    }
  }

  /** Copies incrementally; once told to, writes data of another shape. */
  public static class IncrementalWrongShape {
    static volatile boolean wrong;

    @Transform(name = "copy")
    @dev.transforms.api.Incremental
    public void copy(SingleNodeTransformContext ctx, @TableInput("/src/people") IcebergInput in,
        @TableOutput("/out/people") IcebergOutput out) {
      if (wrong) {
        new WrongShape().copy(ctx, in, out);
      } else {
        out.writeTable(in.arrow());
      }
    }
  }

  @Test
  void aFullBuildWritingAnotherShapeGivesTheOutputThatShape() {
    assertThat(build(Copy.class).succeeded()).isTrue();
    int nameField = catalog.loadTable(OUT).schema().findField("name").fieldId();
    TransformResult result = only(build(WrongShape.class));
    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    Table out = catalog.loadTable(OUT);
    assertThat(out.schema().columns()).extracting(Types.NestedField::name).containsExactly("id", "age");
    assertThat(out.schema().findField("id").type()).isEqualTo(Types.StringType.get());
    assertThat(out.schema().findField("id").fieldId()).as("a string id is a new column").isNotEqualTo(1);
    assertThat(out.schemas().get(out.snapshot(out.currentSnapshot().parentId()).schemaId()).findField("name").fieldId())
        .isEqualTo(nameField);
    assertThat(result.outputs().get(0).schemaChanges()).anyMatch(c -> c.startsWith("id replaced: long became string"))
        .contains("name dropped (string)", "age added (int)");
  }

  @Test
  void anIncrementalBuildWritingAnIncompatibleShapeListsTheFieldsAndLeavesTheTableUnchanged() {
    IncrementalWrongShape.wrong = false;
    assertThat(build(IncrementalWrongShape.class).succeeded()).isTrue();
    Table out = catalog.loadTable(OUT);
    long before = out.currentSnapshot().snapshotId();
    java.util.Map<Integer, Schema> schemas = out.schemas();
    append(source, 4);
    IncrementalWrongShape.wrong = true;
    String message = error(build(IncrementalWrongShape.class));
    assertThat(message).contains("/out/people").contains("id: table long, rows string").contains("age: not in the table")
        .contains("policy fail");
    out.refresh();
    assertThat(out.currentSnapshot().snapshotId()).isEqualTo(before);
    assertThat(out.schema().asStruct()).isEqualTo(SCHEMA.asStruct());
    assertThat(out.schemas().keySet()).isEqualTo(schemas.keySet());
    assertThat(rows(out)).isEqualTo(expected(1, 2, 3));
  }

  /** Streams the input in small batches into the output. */
  public static class Streamed {
    static int batches;

    @Transform(name = "copy")
    public void copy(@TableInput("/src/people") IcebergInput in, @TableOutput("/out/people") IcebergOutput out) {
      ArrowReader reader = in.arrowReader(2);
      out.writeTable(() -> new Iterator<VectorSchemaRoot>() {
        Boolean next;

        @Override public boolean hasNext() {
          if (next == null) {
            try {
              next = reader.loadNextBatch();
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
          return next;
        }

        @Override public VectorSchemaRoot next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          next = null;
          batches++;
          try {
            return reader.getVectorSchemaRoot();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      });
    }
  }

  @Test
  void aStreamedCopyWritesEveryBatch() {
    append(source, 4, 5);
    Streamed.batches = 0;
    assertThat(build(Streamed.class).succeeded()).isTrue();
    assertThat(Streamed.batches).isEqualTo(3);
    assertThat(rows(catalog.loadTable(OUT))).isEqualTo(expected(1, 2, 3, 4, 5));
  }
}
