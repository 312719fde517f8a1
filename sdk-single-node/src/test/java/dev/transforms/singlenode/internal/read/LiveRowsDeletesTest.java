package dev.transforms.singlenode.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.singlenode.edits.RowEdits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ContentFileUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The live rows of each data file, read with the engine's own Parquet reader and its own reader of
 * position delete files, are the rows Iceberg's generic reader returns: position deletes (one file
 * per data file, or one file for several data files), deletion vectors and equality deletes applied.
 */
class LiveRowsDeletesTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "status", Types.StringType.get()));

  @TempDir Path dir;

  private Table create(Catalogs catalogs, int formatVersion, String deleteKind) {
    Map<String, String> properties = new HashMap<>();
    properties.put(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion));
    properties.put(TableProperties.DELETE_MODE, "merge-on-read");
    properties.put(RowEdits.DELETE_KIND_PROPERTY, deleteKind);
    Catalogs.createNamespaceIfMissing(catalogs.catalog("local"), Namespace.of("Shop"));
    Table table = catalogs.catalog("local").createTable(TableIdentifier.of("Shop", "orders"), SCHEMA,
        PartitionSpec.unpartitioned(), properties);
    String[] statuses = {"paid", "open", "cancelled"};
    for (int file = 0; file < 3; file++) {
      List<Record> records = new ArrayList<>();
      for (long id = file * 1000L; id < file * 1000L + 1000; id++) {
        GenericRecord record = GenericRecord.create(SCHEMA);
        record.set(0, id);
        record.set(1, id % 5 == 0 ? null : "name-" + (id % 300));
        record.set(2, statuses[(int) (id % 3)]);
        records.add(record);
      }
      RowEdits.on(table).append(records);
    }
    table.refresh();
    return table;
  }

  /** Every live row, read file by file through {@link LiveRows}, as {@code id:name:status}. */
  private static Set<String> liveRows(Table table, boolean utf8Strings) {
    Set<String> rows = new TreeSet<>();
    for (FileScanTask task : tasks(table)) {
      LiveRows live = LiveRows.of(table.io(), table.schema(), task, table.schema());
      try (CloseableIterable<Record> records = live.records(false, utf8Strings)) {
        for (Record r : records) {
          rows.add(r.get(0) + ":" + r.get(1) + ":" + r.get(2));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return rows;
  }

  private static Set<String> icebergRows(Table table) {
    Set<String> rows = new TreeSet<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(r -> rows.add(r.get(0) + ":" + r.get(1) + ":" + r.get(2)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static List<FileScanTask> tasks(Table table) {
    table.refresh();
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  /** Writes a position delete file of (data file, position) pairs, in order. */
  private static DeleteFile positionDeletes(Table table, Object... pairs) {
    GenericFileWriterFactory factory = new GenericFileWriterFactory.Builder(table).build();
    PositionDeleteWriter<Record> writer = factory.newPositionDeleteWriter(
        OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PARQUET).build().newOutputFile(),
        table.spec(), null);
    PositionDelete<Record> delete = PositionDelete.create();
    try (writer) {
      for (int i = 0; i < pairs.length; i += 2) {
        writer.write(delete.set((String) pairs[i], (Long) pairs[i + 1]));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  /** The ids of the table's 3,000 rows that match, as a filter string's list. */
  private static String ids(java.util.function.LongPredicate matches) {
    return java.util.stream.LongStream.range(0, 3000).filter(matches).mapToObj(Long::toString)
        .collect(Collectors.joining(", "));
  }

  private static List<Long> positions(PositionDeleteIndex index) {
    List<Long> positions = new ArrayList<>();
    if (index != null) {
      index.forEach(positions::add);
    }
    return positions;
  }

  private static Set<String> locations(Iterable<DeleteFile> files) {
    Set<String> locations = new TreeSet<>();
    files.forEach(f -> locations.add(f.location()));
    return locations;
  }

  @ParameterizedTest(name = "v{0} {1} deletes")
  @CsvSource({"2, position", "3, position", "2, equality"})
  void theLiveRowsOfEachFileAreIcebergsRows(int formatVersion, String deleteKind) {
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      Table table = create(catalogs, formatVersion, deleteKind);
      RowEdits.on(table).delete("id in (" + ids(id -> id % 7 == 0) + ") or id between 1500 and 1510");
      table.refresh();
      Set<String> expected = icebergRows(table);
      assertThat(expected).hasSize(3000 - 429 - 10).doesNotContain("1506:name-6:paid")
          .contains("1511:name-11:cancelled");
      assertThat(tasks(table)).allMatch(task -> !task.deletes().isEmpty());

      assertThat(liveRows(table, false)).isEqualTo(expected);
      assertThat(liveRows(table, true)).isEqualTo(expected);
    }
  }

  @Test
  void positionDeletesAreThoseIcebergsLoaderLoadsWithTheirDeleteFiles() {
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      Table table = create(catalogs, 2, "position");
      RowEdits.on(table).delete("id in (" + ids(id -> id % 7 == 0) + ")");
      // a second delete file for each data file, written apart: positions 1 and 2
      for (FileScanTask task : tasks(table)) {
        table.newRowDelta().addDeletes(positionDeletes(table, task.file().location(), 1L, task.file().location(), 2L)).commit();
      }
      for (FileScanTask task : tasks(table)) {
        assertThat(task.deletes()).hasSize(2)
            .allMatch(f -> task.file().location().equals(ContentFileUtil.referencedDataFileLocation(f)));
        Schema projection = new Schema(SCHEMA.columns().get(0), MetadataColumns.ROW_POSITION);
        PositionDeleteIndex ours = LiveRows.of(table.io(), table.schema(), task, projection).deletedPositions();
        PositionDeleteIndex iceberg = new BaseDeleteLoader(f -> table.io().newInputFile(f))
            .loadPositionDeletes(task.deletes(), task.file().location());
        assertThat(positions(ours)).isNotEmpty().isEqualTo(positions(iceberg));
        assertThat(locations(ours.deleteFiles())).isEqualTo(locations(task.deletes()));
      }
    }
  }

  @Test
  void aPositionDeleteFileOfSeveralDataFilesDeletesFromEachOnlyItsOwnRows() {
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      Table table = create(catalogs, 2, "position");
      List<DataFile> files = tasks(table).stream().map(FileScanTask::file)
          .sorted(java.util.Comparator.comparing(DataFile::location)).collect(Collectors.toList());
      // one delete file, not scoped to a data file: rows 3 and 5 of the first, 4 of the last
      DeleteFile deleteFile = positionDeletes(table, files.get(0).location(), 3L, files.get(0).location(), 5L,
          files.get(2).location(), 4L);
      assertThat(ContentFileUtil.referencedDataFileLocation(deleteFile)).isNull();
      table.newRowDelta().addDeletes(deleteFile).commit();

      Set<String> expected = icebergRows(table);
      assertThat(expected).hasSize(3000 - 3);
      assertThat(liveRows(table, true)).isEqualTo(expected);
      Map<String, List<Long>> deleted = new HashMap<>();
      for (FileScanTask task : tasks(table)) {
        deleted.put(task.file().location(),
            positions(LiveRows.of(table.io(), table.schema(), task, table.schema()).deletedPositions()));
      }
      assertThat(deleted).containsEntry(files.get(0).location(), List.of(3L, 5L))
          .containsEntry(files.get(1).location(), List.of())
          .containsEntry(files.get(2).location(), List.of(4L));
    }
  }
}
