package dev.transforms.singlenode.edits;

import java.util.Locale;
import org.apache.iceberg.Table;

/**
 * How merge-on-read edits mark rows deleted, chosen by the table property {@link
 * RowEdits#DELETE_KIND_PROPERTY}: {@code position} (the default: position deletes in format v2,
 * deletion vectors in v3; cheapest to read) or {@code equality} (equality deletes on the upsert's
 * join columns, or on the table's identifier fields for delete and overwrite).
 */
enum DeleteKind {
  POSITION,
  EQUALITY;

  static DeleteKind of(Table table) {
    String value = table.properties().get(RowEdits.DELETE_KIND_PROPERTY);
    if (value == null || value.isBlank()) {
      return POSITION;
    }
    switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "position":
        return POSITION;
      case "equality":
        return EQUALITY;
      default:
        throw new InvalidRowEditException(
            String.format(
                "Table %s has %s=%s; set it to 'position' or 'equality'",
                table.name(), RowEdits.DELETE_KIND_PROPERTY, value));
    }
  }
}
