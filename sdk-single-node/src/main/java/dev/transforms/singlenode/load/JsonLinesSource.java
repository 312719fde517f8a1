package dev.transforms.singlenode.load;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.transforms.api.InvalidLoadException;
import dev.transforms.runtime.load.SourceFile;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
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
final class JsonLinesSource implements RowSource {
  private static final JsonFactory JSON = new JsonFactory();

  private final String name;
  private final SourceFile file;
  private final TextFiles.Opened opened;
  private final BufferedReader lines;
  private final BadRows bad;
  private final Map<String, Integer> byName = new HashMap<>();
  private final TextColumn[] parsers;
  private final boolean[] filled;
  private final VectorSchemaRoot root;
  private final int batchSize;
  private long line;
  private long rows;
  private boolean exhausted;

  JsonLinesSource(SourceFile file, Schema columns, BadRows bad, BufferAllocator allocator, int batchSize)
      throws IOException {
    this.file = file;
    this.name = file.path().getFileName().toString();
    this.bad = bad;
    this.batchSize = batchSize;
    List<Types.NestedField> declared = columns.columns();
    this.filled = new boolean[declared.size()];
    this.opened = TextFiles.open(file);
    this.lines = new BufferedReader(opened.reader(), 1 << 16);
    this.root = VectorSchemaRoot.create(ArrowSchemas.toArrow(columns), allocator);
    try {
      this.parsers = new TextColumn[declared.size()];
      for (int i = 0; i < declared.size(); i++) {
        byName.put(declared.get(i).name(), i);
        parsers[i] = TextColumn.of(declared.get(i), root.getVector(declared.get(i).name()));
      }
      for (FieldVector vector : root.getFieldVectors()) {
        vector.setInitialCapacity(batchSize);
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  @Override
  public VectorSchemaRoot next() throws IOException {
    if (exhausted) {
      return null;
    }
    root.allocateNew();
    int row = 0;
    try {
      while (row < batchSize) {
        String text = lines.readLine();
        if (text == null) {
          exhausted = true;
          break;
        }
        line++;
        if (line == 1 && text.startsWith("\uFEFF")) {
          text = text.substring(1);
        }
        if (text.isBlank()) {
          continue;
        }
        rows++;
        if (read(row, text)) {
          row++;
        }
      }
    } catch (CharacterCodingException e) {
      throw new InvalidLoadException("File " + file + " is not UTF-8 text (after line " + line + ")", e);
    }
    root.setRowCount(row);
    return row > 0 || !exhausted ? root : null;
  }

  private boolean read(int row, String text) throws IOException {
    Arrays.fill(filled, false);
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
        TextColumn parser1 = parsers[column];
        if (filled[column]) {
          bad.add(name + ":" + line + ":" + at, "key '" + key + "' appears twice");
          return false;
        }
        filled[column] = true;
        int valueAt = column(parser);
        try {
          value(row, parser, token, parser1);
        } catch (BadValue e) {
          bad.add(name + ":" + line + ":" + valueAt, "column " + parser1.describe() + ": " + e.getMessage());
          return false;
        }
      }
      if (token != JsonToken.END_OBJECT || parser.nextToken() != null) {
        bad.add(name + ":" + line, "a line must hold one JSON object and nothing after it");
        return false;
      }
    } catch (JsonProcessingException e) {
      String at = e.getLocation() == null ? "" : ":" + e.getLocation().getColumnNr();
      bad.add(name + ":" + line + at, "not valid JSON: " + e.getOriginalMessage());
      return false;
    }
    for (int column = 0; column < filled.length; column++) {
      if (!filled[column]) {
        try {
          parsers[column].setNull(row);
        } catch (BadValue e) {
          bad.add(name + ":" + line, "column " + parsers[column].describe() + ": the key is missing, but the column "
              + "is not null");
          return false;
        }
      }
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

  @Override
  public long rows() {
    return rows;
  }

  @Override
  public long bytesRead() {
    return opened.counted().count();
  }

  @Override
  public void close() throws IOException {
    try {
      lines.close();
    } finally {
      root.close();
    }
  }
}
