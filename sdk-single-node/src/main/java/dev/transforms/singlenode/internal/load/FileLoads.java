package dev.transforms.singlenode.internal.load;

import dev.transforms.api.InvalidLoadException;
import dev.transforms.runtime.spi.LoadListener;
import dev.transforms.runtime.spi.SourceFile;
import dev.transforms.runtime.spi.TextOptions;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * Reads CSV, JSON lines and Parquet files into Arrow batches and writes them with
 * {@link ArrowTableWriter}: the work of the single-node load engine, given an allocator.
 */
public final class FileLoads {

  /** Rows per Arrow batch. */
  static final int BATCH_SIZE = 32_768;

  private FileLoads() {}

  /**
   * The schema Parquet files carry; every file must have the same columns and types.
   *
   * @throws InvalidLoadException naming the file that differs and how
   */
  public static Schema parquetSchema(List<SourceFile> files) {
    Schema first = ParquetSource.schemaOf(files.get(0));
    for (SourceFile file : files.subList(1, files.size())) {
      Schema other = ParquetSource.schemaOf(file);
      if (!sameColumns(first, other)) {
        throw new InvalidLoadException("Parquet files " + files.get(0) + " and " + file + " have different columns: "
            + describe(first) + " and " + describe(other) + "; load them into one table only if they agree");
      }
    }
    return first;
  }

  private static boolean sameColumns(Schema one, Schema other) {
    List<Types.NestedField> a = one.columns();
    List<Types.NestedField> b = other.columns();
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).name().equals(b.get(i).name()) || !a.get(i).type().equals(b.get(i).type())
          || a.get(i).isOptional() != b.get(i).isOptional()) {
        return false;
      }
    }
    return true;
  }

  private static String describe(Schema schema) {
    return schema.columns().stream().map(c -> c.name() + " " + c.type() + (c.isRequired() ? " not null" : ""))
        .toList().toString();
  }

  /**
   * Guesses the columns of CSV or JSON lines files from every value.
   *
   * @param text how CSV files are laid out
   * @return the guessed columns, all optional
   */
  public static Schema guessSchema(List<SourceFile> files, TextOptions text) {
    return SchemaGuess.of(files, text);
  }

  /**
   * Opens every file as {@link #write} would and reads its beginning, without parsing a row: a gzipped
   * file must be gzip, the first block of text UTF-8, a CSV header must name the columns, a Parquet file
   * must be Parquet and hold the columns.
   *
   * @param text how CSV files are laid out
   * @param allocator the memory of the (empty) batches, all released on return
   * @throws dev.transforms.api.InvalidLoadException naming the file, and the line where there is one
   */
  public static void check(Schema columns, List<SourceFile> files, TextOptions text,
      BufferAllocator allocator) {
    for (SourceFile file : files) {
      try (RowSource source = open(file, columns, text, new BadRows(), allocator, 1)) {
        if (source instanceof TextSource textSource) {
          textSource.probe();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
      }
    }
  }

  /**
   * Reads every file and writes its rows as new, uncommitted data files of the table.
   *
   * @param columns the columns the files hold, typed as the table's
   * @param text how CSV files are laid out
   * @param allocator the memory of the batches, all released on return
   * @throws dev.transforms.api.BadRowsException listing the bad rows once every file was read; the data
   *     files written are deleted then
   */
  public static List<DataFile> write(Table table, Schema columns, List<SourceFile> files,
      TextOptions text, LoadListener listener, BufferAllocator allocator) {
    BadRows bad = new BadRows();
    try (ArrowTableWriter writer = ArrowTableWriter.builder(table).build()) {
      for (SourceFile file : files) {
        long size = file.size();
        try (RowSource source = open(file, columns, text, bad, allocator, BATCH_SIZE)) {
          VectorSchemaRoot batch;
          while ((batch = source.next()) != null) {
            // Once a row is bad nothing will be committed: keep reading only to report every bad row.
            if (bad.isEmpty() && batch.getRowCount() > 0) {
              writer.write(batch);
            }
            listener.reading(file, source.bytesRead(), size, source.rows());
          }
          listener.reading(file, size, size, source.rows());
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
        }
      }
      if (!bad.isEmpty()) {
        throw bad.exception();
      }
      return writer.complete();
    }
  }

  private static RowSource open(SourceFile file, Schema columns, TextOptions text, BadRows bad,
      BufferAllocator allocator, int batchSize) throws IOException {
    return switch (file.format()) {
      case CSV -> new CsvSource(file, columns, text, bad, allocator, batchSize);
      case JSON -> new JsonLinesSource(file, columns, bad, allocator, batchSize);
      case PARQUET -> new ParquetSource(file, columns, bad, allocator, batchSize);
    };
  }
}
