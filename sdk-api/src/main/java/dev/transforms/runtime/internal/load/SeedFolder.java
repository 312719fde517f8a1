package dev.transforms.runtime.internal.load;

import dev.transforms.api.InvalidLoadException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.spi.SourceFile;
import dev.transforms.runtime.spi.SourceFormat;
import dev.transforms.runtime.spi.TextOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The seeds convention: a folder (by default {@code seeds/}) whose files are loaded by
 * {@code transforms load --all}, each into the table its path names.
 *
 * <p>{@code seeds/Shop/raw/orders.csv} is loaded into {@code /Shop/raw/orders}, with the columns
 * declared in {@code seeds/Shop/raw/orders.schema} beside it ({@link TableDeclaration#read}, which may
 * end with {@code partitioned by ...}). Parquet files need no schema file. Data files are {@code .csv},
 * {@code .tsv}, {@code .json}, {@code .jsonl}, {@code .ndjson} (each possibly gzipped) and
 * {@code .parquet}; other files are reported as ignored.
 *
 * @param requests one request per data file, in path order
 * @param ignored files that are neither data nor schema files, and schema files without data
 */
public record SeedFolder(List<LoadRequest> requests, List<Path> ignored) {

  /** The folder {@code transforms load --all} reads unless told otherwise. */
  public static final String DEFAULT_FOLDER = "seeds";

  /** The extension of the schema file beside a seed. */
  public static final String SCHEMA_EXTENSION = ".schema";

  /**
   * Reads a seeds folder.
   *
   * @param folder the folder
   * @param mode what each load does to its table
   * @param inferSchema whether a CSV or JSON seed without a schema file may have its columns guessed
   * @param delimiter the CSV delimiter given on the command line, if any ({@code .tsv} files default to tab)
   * @param header whether CSV seeds start with a header line
   * @return the requests
   * @throws InvalidLoadException if the folder does not exist, two data files name one table, or a
   *     schema file does not parse
   */
  public static SeedFolder read(Path folder, LoadMode mode, boolean inferSchema, Optional<Character> delimiter,
      boolean header) {
    if (!Files.isDirectory(folder)) {
      throw new InvalidLoadException("Seeds folder " + folder + " does not exist; put the files to load in "
          + DEFAULT_FOLDER + "/, each at the path of its table (" + DEFAULT_FOLDER + "/Shop/raw/orders.csv for "
          + "/Shop/raw/orders), or name another folder with --seeds");
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(folder)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list seeds folder " + folder, e);
    }
    Map<String, Path> data = new TreeMap<>();
    Map<String, Path> schemas = new TreeMap<>();
    List<Path> ignored = new ArrayList<>();
    for (Path file : files) {
      String relative = folder.relativize(file).toString().replace('\\', '/');
      if (relative.endsWith(SCHEMA_EXTENSION)) {
        schemas.put(relative.substring(0, relative.length() - SCHEMA_EXTENSION.length()), file);
        continue;
      }
      if (SourceFormat.ofFileName(file).isEmpty() || file.getFileName().toString().startsWith(".")) {
        ignored.add(file);
        continue;
      }
      String table = withoutExtensions(relative);
      Path other = data.put(table, file);
      if (other != null) {
        throw new InvalidLoadException("Seeds " + other + " and " + file + " both name table /" + table
            + "; keep one");
      }
    }
    List<LoadRequest> requests = new ArrayList<>();
    for (Map.Entry<String, Path> seed : data.entrySet()) {
      Path file = seed.getValue();
      Path schema = schemas.remove(seed.getKey());
      SourceFile source = SourceFile.of(file, Optional.empty());
      Optional<TableDeclaration> declaration = source.format().carriesSchema() || schema == null ? Optional.empty()
          : Optional.of(TableDeclaration.read(schema));
      if (source.format().carriesSchema() && schema != null) {
        ignored.add(schema);
      }
      char separator = delimiter.orElse(isTsv(file) ? '\t' : ',');
      requests.add(new LoadRequest(DatasetPath.of("/" + seed.getKey()), List.of(source), declaration,
          Optional.empty(), mode, inferSchema, new TextOptions(separator, header),
          Optional.of(folder.resolve(seed.getKey() + SCHEMA_EXTENSION))));
    }
    ignored.addAll(schemas.values());
    return new SeedFolder(requests, ignored.stream().sorted().toList());
  }

  /**
   * Whether a file is tab-separated by its name ({@code .tsv}, possibly gzipped).
   *
   * @param file the file
   * @return whether its delimiter defaults to a tab
   */
  public static boolean isTsv(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".tsv") || name.endsWith(".tsv.gz");
  }

  private static String withoutExtensions(String relative) {
    String name = relative;
    if (name.toLowerCase(Locale.ROOT).endsWith(".gz")) {
      name = name.substring(0, name.length() - 3);
    }
    int dot = name.lastIndexOf('.');
    int slash = name.lastIndexOf('/');
    return dot > slash ? name.substring(0, dot) : name;
  }
}
