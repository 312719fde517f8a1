package dev.transforms.runtime.internal.publish;

import dev.transforms.runtime.spi.CommitRetry;
import dev.transforms.runtime.spi.CrashPoints;
import java.util.Optional;
import java.util.function.IntUnaryOperator;
import java.util.stream.Collectors;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Gives a staged output the schema (and partition spec) an engine asks for, in one commit to its staged
 * table: for an existing output the change waits in the build's shape mark ({@link StagedShape}) until
 * the publication; a new output changes in this process.
 */
final class Reshape {

  private Reshape() {}

  /** Commits the new schema and spec to the staged table; returns the table, refreshed. */
  static Table apply(RunOutput entry, Schema schema, int lastColumnId, Optional<PartitionSpec> spec) {
    if (entry.stagedTable == null) {
      throw new IllegalStateException("Output " + entry.describe() + " has no table in this run yet; create it");
    }
    TableOperations operations = ((HasTableOperations) entry.stagedTable).operations();
    CommitRetry.onConflict(TableCommits.ATTEMPTS).run(() -> {
      TableMetadata base = operations.refresh();
      // Columns new to the table take ids above any the table used, even if another build added some since.
      int shift = Math.max(0, base.lastColumnId() - lastColumnId);
      IntUnaryOperator ids = id -> id > lastColumnId ? id + shift : id;
      Schema fitted = shift == 0 ? schema : new Schema(
          ((Types.StructType) TypeUtil.assignIds(schema.asStruct(), ids::applyAsInt)).fields(),
          schema.identifierFieldIds().stream().map(ids::applyAsInt).collect(Collectors.toSet()));
      TableMetadata.Builder builder = TableMetadata.buildFrom(base);
      if (!fitted.sameSchema(base.schema()) || !fitted.identifierFieldIds().equals(base.schema().identifierFieldIds())) {
        builder.setCurrentSchema(fitted, Math.max(lastColumnId + shift, base.lastColumnId()));
      }
      if (spec.isPresent()) {
        PartitionSpec aligned = aligned(spec.get(), base, fitted, ids);
        if (!aligned.compatibleWith(base.spec())) {
          builder.setDefaultPartitionSpec(aligned);
        }
      }
      if (!base.sortOrder().isUnsorted()
          && base.sortOrder().fields().stream().anyMatch(f -> fitted.findField(f.sourceId()) == null)) {
        builder.setDefaultSortOrder(SortOrder.unsorted());
      }
      TableMetadata updated = builder.build();
      if (updated != base) {
        operations.commit(base, updated);
        if (entry.created == null) {
          CrashPoints.reached("stage.shape");
        }
      }
    });
    entry.stagedTable.refresh();
    return entry.stagedTable;
  }

  /**
   * A partition spec for the new schema whose field ids follow the table's: a field the table had in
   * some spec (same source column, same transform) keeps its id, a new one gets the next.
   */
  private static PartitionSpec aligned(PartitionSpec wanted, TableMetadata base, Schema schema,
      IntUnaryOperator ids) {
    StringBuilder json = new StringBuilder("{\"spec-id\":0,\"fields\":[");
    int last = base.lastAssignedPartitionId();
    for (PartitionField field : wanted.fields()) {
      int source = ids.applyAsInt(field.sourceId());
      Integer id = null;
      for (PartitionSpec spec : base.specs()) {
        for (PartitionField known : spec.fields()) {
          if (known.sourceId() == source && known.transform().equals(field.transform())) {
            id = known.fieldId();
          }
        }
      }
      json.append(json.charAt(json.length() - 1) == '[' ? "" : ",").append("{\"name\":").append(quoted(field.name()))
          .append(",\"transform\":").append(quoted(field.transform().toString()))
          .append(",\"source-id\":").append(source)
          .append(",\"field-id\":").append(id != null ? id : ++last).append('}');
    }
    return PartitionSpecParser.fromJson(schema, json.append("]}").toString());
  }

  private static String quoted(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
