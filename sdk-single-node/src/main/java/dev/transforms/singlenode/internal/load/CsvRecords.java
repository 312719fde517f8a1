package dev.transforms.singlenode.internal.load;

import java.io.IOException;
import java.io.Reader;

/**
 * Splits CSV text into records and fields (RFC 4180): fields separated by one delimiter character,
 * records by {@code \n}, {@code \r\n} or {@code \r}; a field in double quotes may hold delimiters, line
 * breaks and doubled quotes ({@code ""}). Empty lines are skipped. Tracks the line each record starts
 * on, counting the line breaks inside quoted fields, so that errors point at the right line.
 *
 * <p>A record whose quoting is broken (text after a closing quote, a quote never closed) is still
 * returned, with {@link #malformed()} saying what is wrong; reading goes on at the next line.
 */
final class CsvRecords {
  private final Reader in;
  private final char delimiter;
  private final char[] buffer = new char[1 << 16];
  private int position;
  private int limit;
  private long line = 1;

  private char[] data = new char[1024];
  private int length;
  private int[] starts = new int[32];
  private int[] ends = new int[32];
  private boolean[] quoted = new boolean[32];
  private int fields;
  private long recordLine;
  private String malformed;

  CsvRecords(Reader in, char delimiter) {
    this.in = in;
    this.delimiter = delimiter;
  }

  /** Reads the next record; false at the end of the text. */
  boolean next() throws IOException {
    while (true) {
      fields = 0;
      length = 0;
      malformed = null;
      int c = peek();
      if (c < 0) {
        return false;
      }
      if (c == '\uFEFF' && line == 1 && recordLine == 0) {
        read();
        continue;
      }
      if (c == '\n' || c == '\r') {
        read();
        endLine(c);
        continue;
      }
      recordLine = line;
      readRecord();
      return true;
    }
  }

  private void readRecord() throws IOException {
    while (true) {
      startField();
      int c = read();
      if (c == '"') {
        quoted[fields] = true;
        while (true) {
          c = read();
          if (c < 0) {
            endField();
            malformed = "a quoted field is not closed before the end of the file";
            return;
          }
          if (c == '"') {
            if (peek() == '"') {
              read();
              append('"');
              continue;
            }
            break;
          }
          if (c == '\n') {
            line++;
          }
          append((char) c);
        }
        endField();
        c = read();
        if (c == delimiter) {
          continue;
        }
        if (c < 0 || c == '\n' || c == '\r') {
          endLine(c);
          return;
        }
        malformed = "field " + fields + " has text after its closing quote; quote the whole field and double the "
            + "quotes inside it";
        skipLine(c);
        return;
      }
      while (c >= 0 && c != delimiter && c != '\n' && c != '\r') {
        append((char) c);
        c = read();
      }
      endField();
      if (c != delimiter) {
        endLine(c);
        return;
      }
    }
  }

  private void skipLine(int c) throws IOException {
    while (c >= 0 && c != '\n' && c != '\r') {
      c = read();
    }
    endLine(c);
  }

  private void endLine(int c) throws IOException {
    if (c == '\r' && peek() == '\n') {
      read();
    }
    if (c >= 0) {
      line++;
    }
  }

  private void startField() {
    if (fields == starts.length) {
      starts = java.util.Arrays.copyOf(starts, fields * 2);
      ends = java.util.Arrays.copyOf(ends, fields * 2);
      quoted = java.util.Arrays.copyOf(quoted, fields * 2);
    }
    starts[fields] = length;
    quoted[fields] = false;
  }

  private void endField() {
    ends[fields] = length;
    fields++;
  }

  private void append(char c) {
    if (length == data.length) {
      data = java.util.Arrays.copyOf(data, length * 2);
    }
    data[length++] = c;
  }

  private int read() throws IOException {
    if (position == limit && !fill()) {
      return -1;
    }
    return buffer[position++];
  }

  private int peek() throws IOException {
    if (position == limit && !fill()) {
      return -1;
    }
    return buffer[position];
  }

  private boolean fill() throws IOException {
    int n = in.read(buffer, 0, buffer.length);
    if (n <= 0) {
      return false;
    }
    position = 0;
    limit = n;
    return true;
  }

  /** The number of fields of the current record. */
  int fields() {
    return fields;
  }

  /** The characters of the current record; field {@code i} is {@code start(i)} to {@code end(i)}. */
  char[] data() {
    return data;
  }

  int start(int field) {
    return starts[field];
  }

  int length(int field) {
    return ends[field] - starts[field];
  }

  /** Whether a field was written in quotes: {@code ""} is an empty string, an empty unquoted field null. */
  boolean quoted(int field) {
    return quoted[field];
  }

  /** The line the current record starts on, from 1. */
  long line() {
    return recordLine;
  }

  /** What is wrong with the current record's quoting, or null. */
  String malformed() {
    return malformed;
  }

  /** A field's text, for headers and messages. */
  String text(int field) {
    return new String(data, starts[field], ends[field] - starts[field]);
  }
}
