package dev.transforms.singlenode.edits;

import static dev.transforms.singlenode.edits.RowEditsTest.SCHEMA;
import static dev.transforms.singlenode.edits.RowEditsTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writing equality deletes warns once per table that PyIceberg cannot read the table, unless turned off. */
class PyIcebergWarningTest {
  @TempDir Path dir;

  private Table table(String name, Map<String, String> properties) {
    Table table =
        RowEditsTables.create(dir, name, SCHEMA, PartitionSpec.unpartitioned(), 2, true, properties);
    RowEdits.on(table).append(List.of(row(1, "a", 1), row(2, "b", 2)));
    return table;
  }

  @Test
  void anEditWritingEqualityDeletesWarnsOnceForItsTable() {
    Table equality = table("equality", Map.of(RowEdits.DELETE_KIND_PROPERTY, "equality"));
    Table position = table("position", Map.of());
    RowEdits.on(equality).upsert(List.of(row(1, "changed", 1)), List.of("id"));
    RowEdits.on(position).upsert(List.of(row(1, "changed", 1)), List.of("id"));

    // the equality edit has warned already; the position edit has not, so the first call here warns
    assertThat(PyIcebergWarning.equalityDeletesWritten(RowEditsTables.load(equality))).isFalse();
    assertThat(PyIcebergWarning.equalityDeletesWritten(RowEditsTables.load(position))).isTrue();
    assertThat(PyIcebergWarning.equalityDeletesWritten(RowEditsTables.load(position))).isFalse();
    assertThat(PyIcebergWarning.message(equality))
        .startsWith("Table " + equality.name() + " now has equality delete files")
        .contains("PyIceberg 0.12 and earlier cannot read such a table")
        .endsWith("set the table property transforms.warn.pyiceberg-equality-deletes=false");
  }

  @Test
  void theWarningIsTurnedOffByATablePropertyOrASystemProperty() {
    Table silenced =
        table(
            "silenced",
            Map.of(RowEdits.DELETE_KIND_PROPERTY, "equality", PyIcebergWarning.PROPERTY, "false"));
    RowEdits.on(silenced).delete("id = 1");
    assertThat(PyIcebergWarning.message(silenced)).isNull();
    assertThat(PyIcebergWarning.equalityDeletesWritten(silenced)).isFalse();

    Table other = table("other", Map.of());
    System.setProperty(PyIcebergWarning.PROPERTY, "FALSE");
    try {
      assertThat(PyIcebergWarning.message(other)).isNull();
    } finally {
      System.clearProperty(PyIcebergWarning.PROPERTY);
    }
    assertThat(PyIcebergWarning.message(other)).isNotNull();
  }
}
