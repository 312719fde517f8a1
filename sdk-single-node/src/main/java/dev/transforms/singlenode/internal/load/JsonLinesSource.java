package dev.transforms.singlenode.internal.load;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.transforms.runtime.spi.SourceFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The rows of a JSON lines file: one object per line, its keys naming declared columns. A key missing
 * from a line, or {@code null}, is a null value. JSON types must match the column: numbers for numeric
 * columns (a decimal also takes a string, to keep its digits exact), {@code true}/{@code false} for
 * booleans, strings for the others. A key the declaration lacks, a nested object or array, or a line
 * that is not one JSON object is a bad row.
 *
 * <p>Jackson's streaming parser comes with Arrow ({@code arrow-vector} depends on it), and only its
 * long-stable core API is used here.
 */
final class JsonLinesSource extends TextSource {
  private static final JsonFactory JSON = new JsonFactory();

  private final BufferedReader lines;
  private final Map<String, Integer> byName = new HashMap<>();
  private String text;
  private long line;

  JsonLinesSource(SourceFile file, Schema columns, BadRows bad, BufferAllocator allocator, int batchSize)
      throws IOException {
    super(file, columns, bad, allocator, batchSize);
    this.lines = new BufferedReader(opened.reader(), 1 << 16);
    List<Types.NestedField> declared = columns.columns();
    for (int i = 0; i < declared.size(); i++) {
      byName.put(declared.get(i).name(), i);
    }
  }

  @Override
  boolean nextRecord() throws IOException {
    while (true) {
      text = lines.readLine();
      if (text == null) {
        return false;
      }
      line++;
      if (line == 1 && text.startsWith("\uFEFF")) {
        text = text.substring(1);
      }
      if (!text.isBlank()) {
        return true;
      }
    }
  }

  @Override
  long line() {
    return line;
  }

  @Override
  boolean readRecord(int row) throws IOException {
    try (JsonParser parser = JSON.createParser(text)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        bad.add(name + ":" + line, "a line must hold one JSON object, {\"column\": value, ...}");
        return false;
      }
      JsonToken token;
      while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
        String key = parser.currentName();
        int at = column(parser);
        Integer column = byName.get(key);
        token = parser.nextToken();
        if (column == null) {
          bad.add(name + ":" + line + ":" + at, "key '" + key + "' is not a declared column");
          return false;
        }
        TextColumn target = parsers[column];
        if (filled[column]) {
          bad.add(name + ":" + line + ":" + at, "key '" + key + "' appears twice");
          return false;
        }
        filled[column] = true;
        int valueAt = column(parser);
        try {
          value(row, parser, token, target);
        } catch (BadValue e) {
          bad.add(name + ":" + line + ":" + valueAt, "column " + target.describe() + ": " + e.getMessage());
          return false;
        }
      }
      if (token != JsonToken.END_OBJECT || parser.nextToken() != null) {
        bad.add(name + ":" + line, "a line must hold one JSON object and nothing after it");
        return false;
      }
    } catch (JsonProcessingException e) {
      String at = e.getLocation() == null ? "" : ":" + e.getLocation().getColumnNr();
      bad.add(name + ":" + line + at, "not valid JSON: " + JsonErrors.describe(e));
      return false;
    }
    return true;
  }

  private static int column(JsonParser parser) {
    return parser.currentTokenLocation().getColumnNr();
  }

  private static void value(int row, JsonParser parser, JsonToken token, TextColumn column)
      throws IOException, BadValue {
    Type.TypeID type = column.field.type().typeId();
    switch (token) {
      case VALUE_NULL -> column.setNull(row);
      case START_OBJECT, START_ARRAY -> {
        parser.skipChildren();
        throw new BadValue("a nested " + (token == JsonToken.START_OBJECT ? "object" : "array")
            + "; a load reads flat rows (load nested data from Parquet)");
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        if (!(type == Type.TypeID.INTEGER || type == Type.TypeID.LONG || type == Type.TypeID.FLOAT
            || type == Type.TypeID.DOUBLE || type == Type.TypeID.DECIMAL)) {
          throw new BadValue("the number " + parser.getText() + ", but the column holds " + column.field.type());
        }
        column.set(row, parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        if (type != Type.TypeID.BOOLEAN) {
          throw new BadValue(parser.getText() + ", but the column holds " + column.field.type());
        }
        column.set(row, parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
      }
      case VALUE_STRING -> {
        if (type == Type.TypeID.INTEGER || type == Type.TypeID.LONG || type == Type.TypeID.FLOAT
            || type == Type.TypeID.DOUBLE || type == Type.TypeID.BOOLEAN) {
          throw new BadValue("the string \"" + parser.getText() + "\", but the column holds " + column.field.type()
              + "; write it without quotes");
        }
        column.set(row, parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
      }
      default -> throw new BadValue("an unexpected " + token);
    }
  }
}
