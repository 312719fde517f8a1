package dev.transforms.runtime.internal.load;

import dev.transforms.api.InvalidLoadException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.spi.SourceFile;
import dev.transforms.runtime.spi.SourceFormat;
import dev.transforms.runtime.spi.TextOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One table to load and the files to load it from.
 *
 * @param path the table's dataset path
 * @param files the files, all of one format, loaded in one commit
 * @param declaration the declared columns (and partitioning) for CSV and JSON; empty for Parquet, or to
 *     read the files by the schema of the table when it exists
 * @param partitionBy the partition spec given on the command line, for a table the load creates
 * @param mode what to do with the table
 * @param inferSchema whether CSV or JSON columns may be guessed from the data when nothing declares them
 * @param text how CSV files are laid out
 * @param seedSchemaFile for a seed of {@code load --all}, where its {@code .schema} file goes (whether or not
 *     it exists): {@code --all} takes no {@code --schema}, so a seed without columns is told to write this
 *     file; empty for the files named on the command line
 */
public record LoadRequest(
    DatasetPath path,
    List<SourceFile> files,
    Optional<TableDeclaration> declaration,
    Optional<String> partitionBy,
    LoadMode mode,
    boolean inferSchema,
    TextOptions text,
    Optional<Path> seedSchemaFile) {

  /**
   * Checks the request holds together.
   *
   * @param path the table's dataset path
   * @param files the files
   * @param declaration the declared columns
   * @param partitionBy the partition spec text
   * @param mode the mode
   * @param inferSchema whether to guess columns
   * @param text the CSV layout
   * @throws InvalidLoadException if there is no file, the files mix formats, a schema is declared for
   *     Parquet, or the partitioning is given twice
   */
  public LoadRequest {
    files = List.copyOf(files);
    if (files.isEmpty()) {
      throw new InvalidLoadException("No file to load into " + path + "; name at least one");
    }
    SourceFormat format = files.get(0).format();
    for (SourceFile file : files) {
      if (file.format() != format) {
        throw new InvalidLoadException("The files to load into " + path + " mix formats: " + files.get(0) + " is "
            + format + ", " + file + " is " + file.format() + "; load one format at a time");
      }
    }
    if (format.carriesSchema() && declaration.isPresent()) {
      throw new InvalidLoadException("Parquet files carry their schema, but " + declaration.get().origin()
          + " declares one for " + path + "; leave it out");
    }
    if (format.carriesSchema() && inferSchema) {
      throw new InvalidLoadException("Parquet files carry their schema; --infer-schema applies to CSV and JSON only");
    }
    if (partitionBy.isPresent() && declaration.flatMap(TableDeclaration::partitionBy).isPresent()) {
      throw new InvalidLoadException("The partitioning of " + path + " is given twice: by --partition-by and by "
          + declaration.get().origin() + "; keep one");
    }
  }

  /**
   * A request for files named on the command line, not a seed.
   *
   * @param path the table's dataset path
   * @param files the files
   * @param declaration the declared columns
   * @param partitionBy the partition spec text
   * @param mode the mode
   * @param inferSchema whether to guess columns
   * @param text the CSV layout
   */
  public LoadRequest(DatasetPath path, List<SourceFile> files, Optional<TableDeclaration> declaration,
      Optional<String> partitionBy, LoadMode mode, boolean inferSchema, TextOptions text) {
    this(path, files, declaration, partitionBy, mode, inferSchema, text, Optional.empty());
  }

  /**
   * The format of the files.
   *
   * @return the format
   */
  public SourceFormat format() {
    return files.get(0).format();
  }

  /**
   * The partition spec text for a table the load creates: {@code --partition-by}, or the schema file's.
   *
   * @return the text, or empty for an unpartitioned table
   */
  public Optional<String> partitioning() {
    return partitionBy.or(() -> declaration.flatMap(TableDeclaration::partitionBy));
  }
}
