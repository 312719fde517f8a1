package dev.transforms.runtime.internal.schema;

import dev.transforms.api.SchemaChangePolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * How one schema of a table became another, column by column. Columns are matched by field id, the
 * way Iceberg reads them: a column that keeps its id keeps its history (it may be renamed, widened or
 * made optional); a column whose name comes back with another id is a new column that replaces the
 * old one, and earlier rows read it as null.
 *
 * @param changes one entry per column that changed, outermost columns first
 */
public record SchemaDiff(List<Change> changes) {

  /** What happened to a column. */
  public enum Kind {
    /** A column that was not there. */
    ADDED,
    /** A column that is gone. */
    DROPPED,
    /** A column of the same name and an incompatible type, with a new id. */
    REPLACED,
    /** The same column, its type widened (int to long, float to double, a wider decimal). */
    WIDENED,
    /** The same column under another name. */
    RENAMED,
    /** A required column that may now be null. */
    MADE_OPTIONAL,
    /** An optional column that may no longer be null. */
    MADE_REQUIRED
  }

  /**
   * One changed column.
   *
   * @param kind what happened
   * @param column the column's dotted path (its new name for a rename)
   * @param before its type (or name, for a rename) before, empty if it was added
   * @param after its type after, empty if it was dropped
   * @param required whether the column is required after the change (for an added column)
   */
  public record Change(Kind kind, String column, String before, String after, boolean required) {

    /**
     * The change in a few words, as reports and errors print it.
     *
     * @return for instance {@code email added (string)} or {@code id widened from int to long}
     */
    public String describe() {
      return switch (kind) {
        case ADDED -> column + " added (" + after + (required ? ", required" : "") + ")";
        case DROPPED -> column + " dropped (" + before + ")";
        case REPLACED -> column + " replaced: " + before + " became " + after + " (a new column; earlier rows "
            + "keep the old one in their snapshots)";
        case WIDENED -> column + " widened from " + before + " to " + after;
        case RENAMED -> before + " renamed to " + column;
        case MADE_OPTIONAL -> column + " made optional";
        case MADE_REQUIRED -> column + " made required";
      };
    }

    /**
     * Whether an incremental build may make this change under a policy.
     *
     * @param policy the output's policy (not {@code CONFIGURED})
     * @return whether it is allowed
     */
    public boolean allowedBy(SchemaChangePolicy policy) {
      return switch (kind) {
        case ADDED -> !required && policy != SchemaChangePolicy.FAIL;
        case DROPPED, WIDENED, RENAMED, MADE_OPTIONAL -> policy == SchemaChangePolicy.SYNC_ALL_COLUMNS;
        case REPLACED, MADE_REQUIRED -> false;
      };
    }

    /**
     * Why an incremental build may not make this change under a policy, and the way out.
     *
     * @param policy the output's policy
     * @return one line naming the column
     */
    public String refusal(SchemaChangePolicy policy) {
      String name = policy.name().toLowerCase(Locale.ROOT);
      return switch (kind) {
        case ADDED -> required
            ? column + ": a required column (" + after + ") cannot be added by an incremental build, since earlier "
                + "rows have no value for it; make it optional, or build in full"
            : column + ": not in the table (" + after + "); policy " + name + " does not add columns "
                + "(append_new_columns or sync_all_columns would)";
        case DROPPED -> column + ": in the table (" + before + ") but not in the rows; policy " + name
            + " keeps columns (sync_all_columns drops them)";
        case WIDENED -> column + ": table " + before + ", rows " + after + "; policy " + name
            + " does not widen types (sync_all_columns would)";
        case RENAMED -> before + ": renamed to " + column + "; policy " + name
            + " does not rename columns (sync_all_columns would)";
        case MADE_OPTIONAL -> column + ": required in the table, may be null in the rows; policy " + name
            + " keeps it required (sync_all_columns would make it optional)";
        case REPLACED -> column + ": table " + before + ", rows " + after + ": not a widening, so only a full build "
            + "can replace the column";
        case MADE_REQUIRED -> column + ": optional in the table; an incremental build cannot make it required, "
            + "since earlier rows may hold nulls";
      };
    }
  }

  /** Copies the list. */
  public SchemaDiff {
    changes = List.copyOf(changes);
  }

  /**
   * The changes from one schema to another.
   *
   * @param before the schema before
   * @param after the schema after
   * @return the changes; empty when the columns, their names, types and nullability are the same
   */
  public static SchemaDiff between(Schema before, Schema after) {
    Map<Integer, Types.NestedField> was = TypeUtil.indexById(before.asStruct());
    Map<Integer, Types.NestedField> is = TypeUtil.indexById(after.asStruct());
    Map<Integer, Integer> parentsBefore = TypeUtil.indexParents(before.asStruct());
    Map<Integer, Integer> parentsAfter = TypeUtil.indexParents(after.asStruct());
    List<Change> changes = new ArrayList<>();
    Map<String, Change> dropped = new LinkedHashMap<>();
    for (Map.Entry<Integer, Types.NestedField> entry : was.entrySet()) {
      int id = entry.getKey();
      Integer parent = parentsBefore.get(id);
      // A column inside a dropped column is not named again.
      if (!is.containsKey(id) && (parent == null || is.containsKey(parent))) {
        String name = before.findColumnName(id);
        dropped.put(name.toLowerCase(Locale.ROOT),
            new Change(Kind.DROPPED, name, typeName(entry.getValue().type()), "", false));
      }
    }
    for (Map.Entry<Integer, Types.NestedField> entry : is.entrySet()) {
      int id = entry.getKey();
      Types.NestedField field = entry.getValue();
      String name = after.findColumnName(id);
      if (!was.containsKey(id)) {
        Integer parent = parentsAfter.get(id);
        if (parent != null && !was.containsKey(parent)) {
          continue; // inside a column that is new itself
        }
        Change gone = dropped.remove(name.toLowerCase(Locale.ROOT));
        changes.add(gone != null
            ? new Change(Kind.REPLACED, name, gone.before(), typeName(field.type()), field.isRequired())
            : new Change(Kind.ADDED, name, "", typeName(field.type()), field.isRequired()));
        continue;
      }
      Types.NestedField old = was.get(id);
      if (!old.name().equals(field.name())) {
        changes.add(new Change(Kind.RENAMED, name, before.findColumnName(id), "", field.isRequired()));
      }
      if (old.type().isPrimitiveType() && field.type().isPrimitiveType() && !old.type().equals(field.type())) {
        changes.add(new Change(Kind.WIDENED, name, typeName(old.type()), typeName(field.type()), field.isRequired()));
      }
      if (old.isRequired() && field.isOptional()) {
        changes.add(new Change(Kind.MADE_OPTIONAL, name, "", "", false));
      } else if (old.isOptional() && field.isRequired()) {
        changes.add(new Change(Kind.MADE_REQUIRED, name, "", "", true));
      }
    }
    changes.addAll(dropped.values());
    return new SchemaDiff(changes);
  }

  /**
   * Whether nothing changed.
   *
   * @return true when there is no change
   */
  public boolean isEmpty() {
    return changes.isEmpty();
  }

  /**
   * Every change in a few words.
   *
   * @return one line per change
   */
  public List<String> describe() {
    return changes.stream().map(Change::describe).toList();
  }

  /**
   * The changes an incremental build may not make under a policy.
   *
   * @param policy the output's policy (not {@code CONFIGURED})
   * @return the refused changes, each as its refusal line
   */
  public List<String> refusedBy(SchemaChangePolicy policy) {
    return changes.stream().filter(c -> !c.allowedBy(policy)).map(c -> c.refusal(policy)).toList();
  }

  /**
   * Whether the only changes are optional columns added: rows written before read them as null, so a
   * reader of added rows can go on incrementally.
   *
   * @return true when every change adds an optional column
   */
  public boolean onlyAddsOptionalColumns() {
    return changes.stream().allMatch(c -> c.kind() == Kind.ADDED && !c.required());
  }

  /** A type as messages show it: {@code long}, {@code decimal(10,2)}, {@code struct<...>}. */
  static String typeName(Type type) {
    return type.toString();
  }
}
