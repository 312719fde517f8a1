package dev.transforms.singlenode.internal.load;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.transforms.api.InvalidLoadException;
import dev.transforms.runtime.spi.SourceFile;
import dev.transforms.runtime.spi.SourceFormat;
import dev.transforms.runtime.spi.TextOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Guesses the columns of CSV or JSON lines files from every value, for {@code --infer-schema}: a column
 * is the first of boolean, long, double, date, timestamp, timestamptz that all its non-empty values
 * parse as, else string. Every guessed column is optional. A guess costs a full read of the files and
 * depends on the data, which is why loads declare their columns unless asked otherwise.
 */
final class SchemaGuess {

  /** The types tried, in the order of preference. */
  private enum Guess { BOOLEAN, LONG, DOUBLE, DATE, TIMESTAMP, TIMESTAMPTZ }

  private final Map<String, EnumSet<Guess>> candidates = new LinkedHashMap<>();

  private SchemaGuess() {}

  static Schema of(List<SourceFile> files, TextOptions text) {
    SchemaGuess guess = new SchemaGuess();
    for (SourceFile file : files) {
      try {
        if (file.format() == SourceFormat.CSV) {
          guess.csv(file, text);
        } else {
          guess.json(file);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + file, e);
      }
    }
    if (guess.candidates.isEmpty()) {
      throw new InvalidLoadException("Cannot guess the columns of " + files + ": they hold no column names");
    }
    List<Types.NestedField> columns = new ArrayList<>();
    int id = 1;
    for (Map.Entry<String, EnumSet<Guess>> column : guess.candidates.entrySet()) {
      columns.add(Types.NestedField.optional(id++, column.getKey(), type(column.getValue())));
    }
    return new Schema(columns);
  }

  private static Type type(EnumSet<Guess> left) {
    if (left.isEmpty()) {
      return Types.StringType.get();
    }
    return switch (left.iterator().next()) {
      case BOOLEAN -> Types.BooleanType.get();
      case LONG -> Types.LongType.get();
      case DOUBLE -> Types.DoubleType.get();
      case DATE -> Types.DateType.get();
      case TIMESTAMP -> Types.TimestampType.withoutZone();
      case TIMESTAMPTZ -> Types.TimestampType.withZone();
    };
  }

  private void csv(SourceFile file, TextOptions text) throws IOException {
    if (!text.header()) {
      throw new InvalidLoadException("Cannot guess the columns of " + file + " without a header naming them; declare "
          + "them with --schema");
    }
    try (Reader reader = TextFiles.open(file).reader()) {
      CsvRecords records = new CsvRecords(reader, text.delimiter());
      if (!records.next()) {
        return;
      }
      List<EnumSet<Guess>> byField = new ArrayList<>();
      for (int field = 0; field < records.fields(); field++) {
        byField.add(candidates.computeIfAbsent(records.text(field).strip(), k -> EnumSet.allOf(Guess.class)));
      }
      while (records.next()) {
        for (int field = 0; field < Math.min(records.fields(), byField.size()); field++) {
          if (records.length(field) > 0) {
            narrow(byField.get(field), records.data(), records.start(field), records.length(field));
          }
        }
      }
    }
  }

  private void json(SourceFile file) throws IOException {
    try (BufferedReader lines = new BufferedReader(TextFiles.open(file).reader())) {
      String line;
      long number = 0;
      while ((line = lines.readLine()) != null) {
        number++;
        if (line.isBlank()) {
          continue;
        }
        try (JsonParser parser = new com.fasterxml.jackson.core.JsonFactory().createParser(line)) {
          if (parser.nextToken() != JsonToken.START_OBJECT) {
            throw new InvalidLoadException("Cannot guess the columns of " + file + ": line " + number
                + " is not a JSON object");
          }
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            EnumSet<Guess> left = candidates.computeIfAbsent(parser.currentName(), k -> EnumSet.allOf(Guess.class));
            JsonToken token = parser.nextToken();
            switch (token) {
              case VALUE_NULL -> { }
              case VALUE_TRUE, VALUE_FALSE -> left.retainAll(EnumSet.of(Guess.BOOLEAN));
              case VALUE_NUMBER_INT -> left.retainAll(EnumSet.of(Guess.LONG, Guess.DOUBLE));
              case VALUE_NUMBER_FLOAT -> left.retainAll(EnumSet.of(Guess.DOUBLE));
              case VALUE_STRING -> {
                left.removeAll(EnumSet.of(Guess.BOOLEAN, Guess.LONG, Guess.DOUBLE));
                narrow(left, parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
              }
              default -> throw new InvalidLoadException("Cannot guess the type of key '" + parser.currentName()
                  + "' at " + file + ":" + number + ": nested values are not loaded from JSON");
            }
          }
        } catch (JsonProcessingException e) {
          throw new InvalidLoadException("Cannot guess the columns of " + file + ": line " + number
              + " is not valid JSON (" + JsonErrors.describe(e) + ")", e);
        }
      }
    }
  }

  private static void narrow(EnumSet<Guess> left, char[] chars, int offset, int length) {
    left.removeIf(guess -> !parses(guess, chars, offset, length));
  }

  private static boolean parses(Guess guess, char[] chars, int offset, int length) {
    try {
      switch (guess) {
        case BOOLEAN -> TextValues.parseBoolean(chars, offset, length);
        case LONG -> TextValues.parseLong(chars, offset, length, "a long");
        case DOUBLE -> TextValues.parseDouble(chars, offset, length, "a double");
        case DATE -> TextValues.parseDate(chars, offset, length);
        case TIMESTAMP -> TextValues.parseTimestamp(chars, offset, length, false);
        case TIMESTAMPTZ -> TextValues.parseTimestamp(chars, offset, length, true);
      }
      return true;
    } catch (BadValue e) {
      return false;
    }
  }
}
