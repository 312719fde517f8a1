package dev.transforms.singlenode.internal.load;

import dev.transforms.api.InvalidLoadException;
import dev.transforms.runtime.spi.SourceFile;
import dev.transforms.runtime.spi.TextOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The rows of a CSV file, typed by the declared columns. With a header, its names are matched to the
 * columns (a name the declaration lacks, or a required column the header lacks, is an error of the
 * file; an optional column it lacks is null); without one, fields come in the declared order.
 *
 * <p>An unquoted empty field is null; {@code ""} is an empty string in a string column, null elsewhere.
 */
final class CsvSource extends TextSource {
  private final Schema columns;
  private final CsvRecords records;
  private final boolean hasHeader;
  /** For each field of a line, the declared column it fills. */
  private final int[] fieldColumn;

  CsvSource(SourceFile file, Schema columns, TextOptions text, BadRows bad, BufferAllocator allocator,
      int batchSize) throws IOException {
    super(file, columns, bad, allocator, batchSize);
    this.columns = columns;
    this.hasHeader = text.header();
    this.records = new CsvRecords(opened.reader(), text.delimiter());
    List<Types.NestedField> declared = columns.columns();
    try {
      if (!text.header()) {
        int[] inOrder = new int[declared.size()];
        Arrays.setAll(inOrder, i -> i);
        this.fieldColumn = inOrder;
      } else if (records.next()) {
        this.fieldColumn = header(declared);
      } else {
        throw new InvalidLoadException("File " + file + " is empty" + (file.size() == 0 ? " (0 bytes)" : "")
            + ": it has no header line naming the columns " + columns.columns().stream()
                .map(Types.NestedField::name).toList() + "; add one, or load it with --no-header if it has no header "
            + "by design");
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private int[] header(List<Types.NestedField> declared) {
    if (records.malformed() != null) {
      throw new InvalidLoadException("The header of " + file + " (line " + records.line() + ") cannot be read: "
          + records.malformed());
    }
    Map<String, Integer> byName = new HashMap<>();
    for (int i = 0; i < declared.size(); i++) {
      byName.put(declared.get(i).name(), i);
    }
    int[] mapping = new int[records.fields()];
    boolean[] seen = new boolean[declared.size()];
    List<String> problems = new ArrayList<>();
    for (int field = 0; field < records.fields(); field++) {
      String header = records.text(field).strip();
      Integer column = byName.get(header);
      if (column == null) {
        String similar = declared.stream().map(Types.NestedField::name).filter(n -> n.equalsIgnoreCase(header))
            .findFirst().map(n -> " (the declaration has " + n + ")").orElse("");
        problems.add("field " + (field + 1) + " is named '" + header + "', which is not a declared column" + similar);
        continue;
      }
      if (seen[column]) {
        problems.add("column " + header + " is named twice (field " + (field + 1) + ")");
        continue;
      }
      seen[column] = true;
      mapping[field] = column;
    }
    for (int i = 0; i < declared.size(); i++) {
      if (!seen[i] && declared.get(i).isRequired()) {
        problems.add("required column " + declared.get(i).name() + " is missing");
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidLoadException("The header of " + file + " (line " + records.line() + ") does not match the "
          + "declared columns " + columns.columns().stream().map(Types.NestedField::name).toList() + ":\n  - "
          + String.join("\n  - ", problems) + "\nDeclare the file's columns, or load it with --no-header if its first "
          + "line holds data");
    }
    return mapping;
  }

  @Override
  boolean nextRecord() throws IOException {
    return records.next();
  }

  @Override
  long line() {
    return records.line();
  }

  @Override
  boolean readRecord(int row) {
    String where = name + ":" + records.line();
    if (records.malformed() != null) {
      bad.add(where, records.malformed());
      return false;
    }
    if (records.fields() != fieldColumn.length) {
      bad.add(where, records.fields() + (records.fields() == 1 ? " field" : " fields") + ", but the "
          + (hasHeader ? "header has " : "declaration has ") + fieldColumn.length);
      return false;
    }
    char[] data = records.data();
    for (int field = 0; field < fieldColumn.length; field++) {
      int column = fieldColumn[field];
      TextColumn parser = parsers[column];
      filled[column] = true;
      int length = records.length(field);
      try {
        if (length == 0 && !(records.quoted(field) && parser.field.type().typeId() == Type.TypeID.STRING)) {
          parser.setNull(row);
        } else {
          parser.set(row, data, records.start(field), length);
        }
      } catch (BadValue e) {
        bad.add(where + ":" + (field + 1), "column " + parser.describe() + ": " + e.getMessage());
        return false;
      }
    }
    return true;
  }
}
