package dev.transforms.runtime;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Where a dataset path lives: a catalog, namespace levels and a table name.
 *
 * @param path the dataset path it came from
 * @param catalog the catalog name, as configured and as registered in Spark
 * @param namespace the namespace levels, at least one
 * @param table the table name
 */
public record ResolvedTable(DatasetPath path, String catalog, List<String> namespace, String table) {

  /**
   * Copies the namespace so the value stays immutable.
   *
   * @param path the dataset path
   * @param catalog the catalog name
   * @param namespace the namespace levels
   * @param table the table name
   */
  public ResolvedTable {
    namespace = List.copyOf(namespace);
  }

  /**
   * The Iceberg identifier within the catalog.
   *
   * @return the table identifier
   */
  public TableIdentifier identifier() {
    return TableIdentifier.of(Namespace.of(namespace.toArray(new String[0])), table);
  }

  /**
   * The fully qualified Spark SQL identifier, every part quoted with backticks (a backtick inside a
   * part is doubled), usable verbatim in any statement:
   * {@code `local`.`Examples`.`iceberg`.`row-updates`}.
   *
   * @return the quoted identifier
   */
  public String sparkIdentifier() {
    List<String> parts = new ArrayList<>(namespace.size() + 2);
    parts.add(catalog);
    parts.addAll(namespace);
    parts.add(table);
    return quoted(parts);
  }

  /**
   * The fully qualified Spark SQL name of the table's namespace, quoted like
   * {@link #sparkIdentifier()}: {@code CREATE NAMESPACE IF NOT EXISTS <sparkNamespace>}.
   *
   * @return the quoted namespace, such as {@code `local`.`Examples`.`iceberg`}
   */
  public String sparkNamespace() {
    List<String> parts = new ArrayList<>(namespace.size() + 1);
    parts.add(catalog);
    parts.addAll(namespace);
    return quoted(parts);
  }

  private static String quoted(List<String> parts) {
    return String.join(".", parts.stream().map(ResolvedTable::quote).toList());
  }

  /**
   * The table's name inside its catalog as Spark procedures take it in a string argument
   * ({@code table => '...'}): namespace and table, each part quoted, with single quotes escaped for a
   * SQL string literal.
   *
   * @return the name for a procedure's table argument, without the surrounding quotes
   */
  public String procedureTableName() {
    List<String> parts = new ArrayList<>(namespace.size() + 1);
    parts.addAll(namespace);
    parts.add(table);
    return quoted(parts).replace("\\", "\\\\").replace("'", "\\'");
  }

  /**
   * Quotes one identifier part for Spark SQL.
   *
   * @param part a catalog, namespace or table name
   * @return the part in backticks, inner backticks doubled
   */
  public static String quote(String part) {
    return "`" + part.replace("`", "``") + "`";
  }

  /** Returns {@code catalog.namespace.table} as written in reports, unquoted. */
  @Override
  public String toString() {
    return catalog + "." + String.join(".", namespace) + "." + table;
  }
}
