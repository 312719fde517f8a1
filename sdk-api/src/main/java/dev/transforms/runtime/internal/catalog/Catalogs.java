package dev.transforms.runtime.internal.catalog;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.spi.CommitRetry;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.exceptions.AlreadyExistsException;

/**
 * The Iceberg catalogs of one configuration, each built on first use and closed with this object.
 * Thread-safe.
 */
public final class Catalogs implements Closeable {

  private static final String SQLITE = "jdbc:sqlite:";
  private static final int START_ATTEMPTS = 6;
  private static final CommitRetry.Backoff START_BACKOFF = new CommitRetry.Backoff(50, 800, 50, false);

  private final TransformsConfig config;
  private final Configuration hadoopConf;
  private final Map<String, Catalog> loaded = new LinkedHashMap<>();

  /**
   * Creates the catalogs of a configuration; none is built yet.
   *
   * @param config the configuration that defines them
   */
  public Catalogs(TransformsConfig config) {
    this.config = config;
    this.hadoopConf = new Configuration();
    // Local warehouses: no chmod fork per file, no .crc side files (see LocalWarehouseFileSystem).
    this.hadoopConf.set("fs.file.impl", LocalWarehouseFileSystem.class.getName());
    // Hadoop caches file systems by scheme, not by configuration: without this, whoever asked first
    // for a file: file system (Spark, or any default configuration) decides which one every later user
    // gets, and Hadoop's own forks chmod for every file the catalogs write.
    this.hadoopConf.setBoolean("fs.file.impl.disable.cache", true);
  }

  /**
   * The catalog of a name, built on first use.
   *
   * @param name a catalog name from the configuration
   * @return the Iceberg catalog
   * @throws ConfigurationException if the catalog is not defined or cannot be built; the message has
   *     secrets masked
   */
  public synchronized Catalog catalog(String name) {
    Catalog catalog = loaded.get(name);
    if (catalog != null) {
      return catalog;
    }
    Map<String, String> props = properties(name);
    Optional<Path> database = sqliteDatabase(name);
    if (database.isPresent()) {
      // SQLite creates the database file but not its folder (the warehouse, on first use).
      Path folder = checkedFolder(name, database.get());
      try {
        Files.createDirectories(folder);
      } catch (IOException e) {
        throw new ConfigurationException("Cannot create the folder " + folder + " of catalog '" + name
            + "' (its database " + database.get().getFileName() + " goes there): " + e, e);
      }
    }
    try {
      catalog = startWithRetries(name, props);
    } catch (RuntimeException | LinkageError e) {
      throw new ConfigurationException("Cannot start catalog '" + name + "'" + describe(props) + ": "
          + config.masker().mask(String.valueOf(e.getMessage())), e);
    }
    loaded.put(name, catalog);
    return catalog;
  }

  /**
   * The catalog of a name if it exists already, for commands that only read ({@code show}): a catalog
   * kept in a SQLite file that does not exist yet is not created, nor is its folder.
   *
   * @param name a catalog name from the configuration
   * @return the catalog, or empty when its database file does not exist yet
   * @throws ConfigurationException if the catalog is not defined, its database's folder is a file, or
   *     it cannot be started
   */
  public synchronized Optional<Catalog> existingCatalog(String name) {
    properties(name);
    Optional<Path> database = sqliteDatabase(name);
    if (database.isPresent()) {
      checkedFolder(name, database.get());
      if (!Files.exists(database.get())) {
        return Optional.empty();
      }
    }
    return Optional.of(catalog(name));
  }

  /**
   * The SQLite database file a catalog keeps its tables in, as the embedded catalog does.
   *
   * @param name a catalog name from the configuration
   * @return the database file, or empty for a catalog that is not a SQLite file (REST, Hive, in memory...)
   * @throws ConfigurationException if the catalog is not defined
   */
  public Optional<Path> sqliteDatabase(String name) {
    String uri = properties(name).getOrDefault("uri", "");
    if (!uri.startsWith(SQLITE) || uri.contains(":memory:") || uri.contains("mode=memory")) {
      return Optional.empty();
    }
    String file = uri.substring(SQLITE.length()).replaceFirst("\\?.*$", "");
    if (file.startsWith("file:")) {
      file = file.substring("file:".length());
    }
    return file.isEmpty() ? Optional.empty() : Optional.of(Path.of(file).toAbsolutePath());
  }

  /**
   * Checks that a build can write through a catalog before it writes anything: a SQLite database that
   * exists must accept a write. A read-only database otherwise lets a build write its data files and
   * fail only at the commit, with Iceberg's "Unknown failure". A file or folder without write
   * permission is refused without opening the database; otherwise the check opens its own connection
   * with the catalog's driver properties and rolls back a table creation, which leaves the file
   * unchanged. Call it before {@link #catalog(String)}: a read-only connection leaves SQLite's
   * {@code -wal} and {@code -shm} files behind.
   *
   * @param name a catalog name from the configuration
   * @throws ConfigurationException if the database cannot be written, naming the file
   */
  public void checkWritable(String name) {
    Optional<Path> database = sqliteDatabase(name);
    if (database.isEmpty() || !Files.exists(database.get())) {
      return;
    }
    if (!Files.isWritable(database.get()) || !Files.isWritable(database.get().getParent())) {
      throw readOnly(name, database.get(), null);
    }
    Map<String, String> props = properties(name);
    Properties driver = new Properties();
    props.forEach((key, value) -> {
      if (key.startsWith("jdbc.")) {
        driver.setProperty(key.substring("jdbc.".length()), value);
      }
    });
    try (Connection connection = DriverManager.getConnection(props.get("uri"), driver);
        Statement statement = connection.createStatement()) {
      statement.execute("BEGIN IMMEDIATE");
      try {
        statement.execute("CREATE TABLE transforms_write_check (x INTEGER)");
      } finally {
        statement.execute("ROLLBACK");
      }
    } catch (SQLException e) {
      if (String.valueOf(e.getMessage()).contains("SQLITE_READONLY")) {
        throw readOnly(name, database.get(), e);
      }
      throw new ConfigurationException("Catalog '" + name + "' keeps its tables in " + database.get()
          + ", but it cannot be written: " + config.masker().mask(String.valueOf(e.getMessage()))
          + "; nothing was built", e);
    }
  }

  /**
   * Checks that a build or a load can write files where a catalog keeps its tables, before it writes any: on
   * an object store, one small file is written under the warehouse and deleted ({@link WarehouseWriteCheck}).
   * Call it for the catalogs of outputs only: reading needs no write.
   *
   * @param name a catalog name from the configuration
   * @throws ConfigurationException if no file can be written there, naming the catalog and its keys
   */
  public void checkWarehouseWritable(String name) {
    WarehouseWriteCheck.check(name, properties(name), hadoopConf(), config.masker());
  }

  private static ConfigurationException readOnly(String name, Path database, Throwable cause) {
    return new ConfigurationException("Catalog '" + name + "' keeps its tables in " + database
        + ", but it is read-only; make the file and its folder writable (or build on a copy); nothing was built",
        cause);
  }

  /**
   * Creates a namespace and every parent level that is missing, for catalogs that manage namespaces
   * (others are left alone). Safe against a concurrent creator: a level another build created between
   * the check and the creation counts as created. The JDBC catalog reports that race as a failed
   * {@code INSERT}, not as {@link AlreadyExistsException}, so any failure is checked against the
   * catalog's state before it is thrown.
   *
   * @param catalog the catalog
   * @param namespace the namespace, such as {@code Examples.iceberg}
   */
  public static void createNamespaceIfMissing(Catalog catalog, Namespace namespace) {
    if (!(catalog instanceof SupportsNamespaces namespaces)) {
      return;
    }
    String[] levels = namespace.levels();
    for (int depth = 1; depth <= levels.length; depth++) {
      Namespace level = Namespace.of(Arrays.copyOf(levels, depth));
      if (!namespaces.namespaceExists(level)) {
        try {
          namespaces.createNamespace(level);
        } catch (AlreadyExistsException e) {
          // Another writer created it first.
        } catch (RuntimeException e) {
          if (!namespaces.namespaceExists(level)) {
            throw e;
          }
        }
      }
    }
  }

  private Map<String, String> properties(String name) {
    Map<String, String> props = config.catalogs().get(name);
    if (props == null) {
      throw new ConfigurationException("Catalog '" + name + "' is not defined; defined catalogs: "
          + config.catalogs().keySet());
    }
    return props;
  }

  /** The folder of a SQLite database, refused when it is a file (a warehouse named after a file). */
  private static Path checkedFolder(String name, Path database) {
    Path folder = database.getParent();
    for (Path p = folder; p != null; p = p.getParent()) {
      if (Files.exists(p) && !Files.isDirectory(p)) {
        throw new ConfigurationException("Catalog '" + name + "' keeps its database in " + folder + ", but " + p
            + " is a file, not a folder"
            + (name.equals(TransformsConfig.DEFAULT_CATALOG) ? "; name another warehouse folder (--warehouse DIR)" : ""));
      }
    }
    return folder;
  }

  /**
   * Starts a catalog, again after a short wait when it lost a race with another process starting the
   * same new catalog. Two builds on a new warehouse both create the JDBC catalog's tables and migrate
   * their schema; the loser sees a locked database or a column the winner just added. Either is gone
   * once the winner is done, so a few attempts with growing waits succeed. Any other failure is thrown
   * at once. (A failed attempt may leave a connection of Iceberg's pool open: it cannot be reached to
   * close it.)
   */
  private Catalog startWithRetries(String name, Map<String, String> props) {
    CommitRetry retry = new CommitRetry(START_ATTEMPTS, Catalogs::lostStartRace, START_BACKOFF, () -> { },
        (interrupted, last) -> last);
    return retry.run(() -> CatalogUtil.buildIcebergCatalog(name, props, hadoopConf), last -> {
      throw last;
    });
  }

  /** Whether a start failed because another process was creating the same catalog at that moment. */
  static boolean lostStartRace(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
      if (t instanceof SQLException && (message.contains("sqlite_busy") || message.contains("sqlite_locked")
          || message.contains("database is locked") || message.contains("duplicate column")
          || message.contains("already exists"))) {
        return true;
      }
    }
    return false;
  }

  /** The type and URI of a catalog for an error, secrets masked: which catalog could not start, and where. */
  private String describe(Map<String, String> props) {
    List<String> parts = new ArrayList<>();
    Optional.ofNullable(props.get("type")).ifPresent(parts::add);
    Optional.ofNullable(props.get("catalog-impl")).ifPresent(parts::add);
    Optional.ofNullable(props.get("uri")).ifPresent(uri -> parts.add("uri " + config.masker().mask(uri)));
    return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
  }

  /**
   * The configuration the catalogs come from.
   *
   * @return the configuration
   */
  public TransformsConfig config() {
    return config;
  }

  /**
   * The Hadoop configuration shared by the catalogs' file IO.
   *
   * @return the Hadoop configuration
   */
  public Configuration hadoopConf() {
    return hadoopConf;
  }

  @Override
  public synchronized void close() {
    for (Catalog catalog : loaded.values()) {
      if (catalog instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception e) {
          // Closing releases connections; a failure here must not hide the build's own result.
        }
      }
    }
    loaded.clear();
  }
}
