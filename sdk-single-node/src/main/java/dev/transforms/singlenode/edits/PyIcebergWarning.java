package dev.transforms.singlenode.edits;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warning logged, once per table and JVM, when row edits write equality delete files: PyIceberg
 * (0.12 and earlier) refuses to read a table that has them ("PyIceberg does not yet support equality
 * deletes"), so Python readers of the table break. Turned off by the table property or the JVM system
 * property {@value #PROPERTY} {@code = false}.
 */
final class PyIcebergWarning {
  /** Table property, or JVM system property, that turns the warning off when {@code false}. */
  static final String PROPERTY = "transforms.warn.pyiceberg-equality-deletes";

  private static final Logger LOG = LoggerFactory.getLogger(RowEdits.class);
  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

  private PyIcebergWarning() {}

  /** Logs the warning unless it is turned off or was logged for this table already; returns whether it logged. */
  static boolean equalityDeletesWritten(Table table) {
    String message = message(table);
    if (message == null || !WARNED.add(table.name())) {
      return false;
    }
    LOG.warn(message);
    return true;
  }

  /** The warning for the table, or null when it is turned off. */
  static String message(Table table) {
    if (off(table.properties().get(PROPERTY)) || off(System.getProperty(PROPERTY))) {
      return null;
    }
    return "Table "
        + table.name()
        + " now has equality delete files ("
        + RowEdits.DELETE_KIND_PROPERTY
        + "=equality): PyIceberg 0.12 and earlier cannot read such a table (\"PyIceberg does not yet"
        + " support equality deletes\"). If Python reads it, use position deletes (remove "
        + RowEdits.DELETE_KIND_PROPERTY
        + "); to silence this warning, set the table property "
        + PROPERTY
        + "=false";
  }

  private static boolean off(String value) {
    return value != null && value.trim().toLowerCase(Locale.ROOT).equals("false");
  }
}
