package dev.transforms.runtime.internal.schema;

import dev.transforms.api.SchemaChangePolicy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * The schema an output gets from the rows a build writes to it, engine-neutral: both engines convert
 * what they write (a DataFrame's schema, an Arrow schema) to an Iceberg schema and ask here.
 *
 * <ul>
 *   <li>A <b>full build</b> ({@link #replace}) gives the output the columns it writes, in their order.
 *       A column that keeps its name (in any case) keeps its field id, and so its history, when its
 *       new type holds the old one's values (the same type, a narrower one, which is written widened,
 *       or a widening); otherwise it becomes a new column of the same name. A column the rows do not
 *       have is dropped from the current schema only: earlier snapshots keep it.
 *   <li>An <b>incremental build</b> ({@link #evolve}) keeps the table's columns and order and changes
 *       them only as the output's {@link SchemaChangePolicy} allows; anything else is a problem,
 *       named by column, and nothing is written.
 * </ul>
 */
public final class SchemaEvolution {

  private SchemaEvolution() {}

  /**
   * The schema to write with, the changes it makes to the table's, and what stops it.
   *
   * @param schema the new schema, with field ids (the table's, where columns keep theirs)
   * @param lastColumnId the highest field id the table has used once the schema is added
   * @param diff how the table's schema changes
   * @param problems one line per column that the policy does not let change; empty when none
   */
  public record Result(Schema schema, int lastColumnId, SchemaDiff diff, List<String> problems) {

    /** Copies the problems. */
    public Result {
      problems = List.copyOf(problems);
    }

    /**
     * Whether the table's schema changes.
     *
     * @return true when the diff is not empty
     */
    public boolean changes() {
      return !diff.isEmpty();
    }
  }

  /**
   * The schema of a full build: the written columns, keeping the ids of the table's columns that
   * still hold their values.
   *
   * @param table the table's current schema
   * @param lastColumnId the highest field id the table has used
   * @param written the columns the build writes (their ids are ignored)
   * @return the new schema; never has problems
   */
  public static Result replace(Schema table, int lastColumnId, Schema written) {
    AtomicInteger last = new AtomicInteger(lastColumnId);
    Types.StructType struct = replaceStruct(table.asStruct(), written.asStruct(), last);
    Schema schema = new Schema(struct.fields(), keptIdentifiers(table, struct));
    return new Result(schema, last.get(), SchemaDiff.between(table, schema), List.of());
  }

  /**
   * The schema of an incremental build under a policy: the table's columns, with the new columns the
   * rows bring added at the end, and (under {@code SYNC_ALL_COLUMNS}) the columns they lack dropped and
   * their widened types taken.
   *
   * @param table the table's current schema
   * @param lastColumnId the highest field id the table has used
   * @param written the columns the build writes (their ids are ignored)
   * @param policy the output's policy (not {@code CONFIGURED})
   * @param spec the table's partition spec: its source columns cannot be dropped
   * @return the new schema, and the problems that stop the write
   */
  public static Result evolve(Schema table, int lastColumnId, Schema written, SchemaChangePolicy policy,
      PartitionSpec spec) {
    AtomicInteger last = new AtomicInteger(lastColumnId);
    List<String> problems = new ArrayList<>();
    Set<Integer> kept = new HashSet<>(table.identifierFieldIds());
    for (PartitionField field : spec.fields()) {
      kept.add(field.sourceId());
    }
    Types.StructType struct = evolveStruct("", table.asStruct(), written.asStruct(), policy, last, kept,
        table.identifierFieldIds(), problems);
    Schema schema = new Schema(struct.fields(), keptIdentifiers(table, struct));
    return new Result(schema, last.get(), SchemaDiff.between(table, schema), problems);
  }

  /**
   * What stops a partition spec from being used with a new schema: a source column that is gone, or
   * whose new type the transform cannot take.
   *
   * @param spec the spec
   * @param schema the new schema
   * @return one line per partition field at fault
   */
  public static List<String> partitionProblems(PartitionSpec spec, Schema schema) {
    List<String> problems = new ArrayList<>();
    for (PartitionField field : spec.fields()) {
      Types.NestedField source = schema.findField(field.sourceId());
      String was = spec.schema().findColumnName(field.sourceId());
      if (source == null) {
        problems.add((was == null ? "column " + field.sourceId() : was) + ": the source of partition field "
            + field.name() + " (" + field.transform() + "), and the rows have no such column");
      } else if (!field.transform().canTransform(source.type())) {
        problems.add(schema.findColumnName(field.sourceId()) + ": the source of partition field " + field.name()
            + " (" + field.transform() + "), which cannot take its new type " + source.type());
      }
    }
    return problems;
  }

  private static Types.StructType replaceStruct(Types.StructType table, Types.StructType written, AtomicInteger last) {
    List<Types.NestedField> fields = new ArrayList<>();
    for (Types.NestedField column : written.fields()) {
      Types.NestedField match = table == null ? null : find(table, column.name());
      if (match != null && holds(column.type(), match.type())) {
        Type type = match.type().isPrimitiveType()
            ? (fits(column.type(), match.type()) ? match.type() : column.type())
            : replaceNested(match.type(), column.type(), last);
        fields.add(Types.NestedField.builder().withId(match.fieldId()).withName(match.name())
            .isOptional(match.isOptional() || column.isOptional()).ofType(type).withDoc(match.doc()).build());
      } else {
        fields.add(Types.NestedField.builder().withId(last.incrementAndGet()).withName(column.name())
            .isOptional(column.isOptional()).ofType(fresh(column.type(), last)).withDoc(column.doc()).build());
      }
    }
    return Types.StructType.of(fields);
  }

  /** A nested type of the table, given the written one's shape: ids kept where names match. */
  private static Type replaceNested(Type table, Type written, AtomicInteger last) {
    if (table.isStructType()) {
      return replaceStruct(table.asStructType(), written.asStructType(), last);
    }
    if (table.isListType()) {
      Types.ListType list = table.asListType();
      Type element = element(list.elementType(), written.asListType().elementType(), last);
      return list.isElementOptional() || written.asListType().isElementOptional()
          ? Types.ListType.ofOptional(list.elementId(), element) : Types.ListType.ofRequired(list.elementId(), element);
    }
    Types.MapType map = table.asMapType();
    Types.MapType from = written.asMapType();
    Type key = element(map.keyType(), from.keyType(), last);
    Type value = element(map.valueType(), from.valueType(), last);
    return map.isValueOptional() || from.isValueOptional()
        ? Types.MapType.ofOptional(map.keyId(), map.valueId(), key, value)
        : Types.MapType.ofRequired(map.keyId(), map.valueId(), key, value);
  }

  private static Type element(Type table, Type written, AtomicInteger last) {
    if (table.isPrimitiveType()) {
      return fits(written, table) ? table : written;
    }
    return replaceNested(table, written, last);
  }

  private static Types.StructType evolveStruct(String prefix, Types.StructType table, Types.StructType written,
      SchemaChangePolicy policy, AtomicInteger last, Set<Integer> kept, Set<Integer> identifiers,
      List<String> problems) {
    boolean sync = policy == SchemaChangePolicy.SYNC_ALL_COLUMNS;
    List<Types.NestedField> fields = new ArrayList<>();
    for (Types.NestedField column : table.fields()) {
      String name = prefix + column.name();
      Types.NestedField data = find(written, column.name());
      if (data == null) {
        if (sync && !kept.contains(column.fieldId())) {
          continue;
        }
        if (sync) {
          problems.add(name + ": not in the rows, and it cannot be dropped: it is a partition source or an "
              + "identifier field of the table; only a full build can drop it");
        } else if (policy == SchemaChangePolicy.FAIL) {
          problems.add(name + ": in the table (" + column.type() + ") but not in the rows; policy fail changes "
              + "nothing (append_new_columns writes it as null, sync_all_columns drops it)");
        } else if (column.isRequired()) {
          problems.add(name + ": required in the table (" + column.type() + ") and missing from the rows");
        }
        fields.add(column);
        continue;
      }
      Type type = column.type();
      if (column.type().isStructType() && data.type().isStructType()) {
        type = evolveStruct(name + ".", column.type().asStructType(), data.type().asStructType(), policy, last,
            kept, identifiers, problems);
      } else if (!fits(data.type(), column.type())) {
        if (widens(column.type(), data.type()) && sync) {
          type = data.type();
        } else if (widens(column.type(), data.type())) {
          problems.add(name + ": table " + column.type() + ", rows " + data.type() + "; policy "
              + policy.name().toLowerCase(Locale.ROOT) + " does not widen types (sync_all_columns would)");
        } else {
          problems.add(name + ": table " + column.type() + ", rows " + data.type()
              + ": not a widening, so only a full build can change the column's type");
        }
      }
      // An identifier field stays required: rows whose key may be null cannot be written to it.
      boolean optional = column.isOptional()
          || (sync && data.isOptional() && !identifiers.contains(column.fieldId()));
      fields.add(Types.NestedField.builder().withId(column.fieldId()).withName(column.name()).isOptional(optional)
          .ofType(type).withDoc(column.doc()).build());
    }
    for (Types.NestedField column : written.fields()) {
      if (find(table, column.name()) != null) {
        continue;
      }
      if (policy == SchemaChangePolicy.FAIL) {
        problems.add(prefix + column.name() + ": not in the table (rows " + column.type() + "); policy fail adds "
            + "no columns (append_new_columns or sync_all_columns would)");
        continue;
      }
      // Rows written before have no value for it: a new column is optional.
      fields.add(Types.NestedField.optional(last.incrementAndGet(), column.name(), fresh(column.type(), last),
          column.doc()));
    }
    return Types.StructType.of(fields);
  }

  /** The same type with fresh ids for every nested field. */
  private static Type fresh(Type type, AtomicInteger last) {
    return type.isPrimitiveType() ? type : TypeUtil.assignFreshIds(type, last::incrementAndGet);
  }

  private static Types.NestedField find(Types.StructType struct, String name) {
    Types.NestedField exact = struct.field(name);
    return exact != null ? exact : struct.caseInsensitiveField(name);
  }

  private static Set<Integer> keptIdentifiers(Schema table, Types.StructType struct) {
    Set<Integer> ids = new HashSet<>();
    for (int id : table.identifierFieldIds()) {
      Types.NestedField field = struct.field(id);
      if (field != null && field.isRequired() && field.type().isPrimitiveType()) {
        ids.add(id);
      }
    }
    return ids;
  }

  /**
   * Whether values of the written type go into a column of the table's type without loss: the same
   * type, a widening Iceberg allows (int to long, float to double, a decimal to more digits of the
   * same scale), or a decimal with room for every digit; nested types field by field.
   *
   * @param written the type written
   * @param table the column's type
   * @return whether it fits
   */
  public static boolean fits(Type written, Type table) {
    if (written.equals(table)) {
      return true;
    }
    if (written.isStructType() && table.isStructType()) {
      Types.StructType w = written.asStructType();
      Types.StructType t = table.asStructType();
      if (w.fields().size() != t.fields().size()) {
        return false;
      }
      for (Types.NestedField field : t.fields()) {
        Types.NestedField match = find(w, field.name());
        if (match == null || !fits(match.type(), field.type())) {
          return false;
        }
      }
      return true;
    }
    if (written.isListType() && table.isListType()) {
      return fits(written.asListType().elementType(), table.asListType().elementType());
    }
    if (written.isMapType() && table.isMapType()) {
      return fits(written.asMapType().keyType(), table.asMapType().keyType())
          && fits(written.asMapType().valueType(), table.asMapType().valueType());
    }
    if (written instanceof Types.DecimalType w && table instanceof Types.DecimalType t) {
      return t.scale() >= w.scale() && t.precision() - t.scale() >= w.precision() - w.scale();
    }
    return written.isPrimitiveType() && table.isPrimitiveType()
        && TypeUtil.isPromotionAllowed(written, table.asPrimitiveType());
  }

  /** Whether Iceberg can widen a column of type {@code from} to {@code to}, keeping its id. */
  private static boolean widens(Type from, Type to) {
    return from.isPrimitiveType() && to.isPrimitiveType() && TypeUtil.isPromotionAllowed(from, to.asPrimitiveType());
  }

  /** Whether a column of the table's type can keep its id when the rows have the written type. */
  private static boolean holds(Type written, Type table) {
    if (written.isPrimitiveType() && table.isPrimitiveType()) {
      return fits(written, table) || widens(table, written);
    }
    if (written.isListType() && table.isListType()) {
      return holds(written.asListType().elementType(), table.asListType().elementType());
    }
    if (written.isMapType() && table.isMapType()) {
      return holds(written.asMapType().keyType(), table.asMapType().keyType())
          && holds(written.asMapType().valueType(), table.asMapType().valueType());
    }
    return written.isStructType() && table.isStructType();
  }
}
