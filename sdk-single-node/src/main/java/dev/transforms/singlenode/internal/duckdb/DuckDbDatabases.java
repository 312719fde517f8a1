package dev.transforms.singlenode.internal.duckdb;

import dev.transforms.api.ConfigurationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.duckdb.DuckDBConnection;

/**
 * The JVM's in-memory DuckDB databases: one per distinct memory limit and thread count, opened on first
 * use and kept until the JVM exits. Opening a database costs about 20 ms and closing one about 13 ms,
 * and its first query pays for cold caches; a connection to an open one costs almost nothing. So every
 * DuckDB path of the engine (SQL sessions, reads, rewrites and writes) connects to one of these.
 *
 * <p>Memory limit and threads are settings of a whole database in DuckDB, which is why databases are
 * told apart by them. Each has a spill folder of its own ({@code temp_directory}), deleted when the JVM
 * exits. What a user changes for the whole database ({@code SET threads}, {@code SET GLOBAL ...}) is
 * put back by {@link #restore} when their session closes.
 */
public final class DuckDbDatabases {

  /** What identifies a database: its memory limit and thread count as configured (null for DuckDB's default). */
  private record Key(String memoryLimit, String threads) {}

  /**
   * An open database: the connection that keeps it open, its global settings as first opened, and the
   * values the engine gave some of them, as given (DuckDB prints some rounded).
   */
  public record Database(DuckDBConnection root, Map<String, String> settings, Map<String, String> given) {}

  private static final Map<Key, Database> OPEN = new HashMap<>();
  private static final List<Path> SPILL_FOLDERS = new ArrayList<>();
  private static boolean cleanupRegistered;

  private DuckDbDatabases() {}

  /**
   * The database of DuckDB's default memory limit and threads.
   *
   * @return the database, open
   * @throws SQLException if DuckDB cannot open
   */
  static Database defaults() throws SQLException {
    return database(null, null, null, null);
  }

  /**
   * The database of a configured memory limit and thread count.
   *
   * @param memoryLimitKey the configuration key of the memory limit, for messages
   * @param memoryLimit DuckDB's syntax ({@code 4GB}, {@code 50%}); null for DuckDB's default
   * @param threadsKey the configuration key of the thread count, for messages
   * @param threads the thread count; null for one per core
   * @return the database, open
   * @throws ConfigurationException naming the key, if DuckDB refuses a value
   * @throws SQLException if DuckDB cannot open
   */
  public static synchronized Database database(String memoryLimitKey, String memoryLimit, String threadsKey, String threads)
      throws SQLException {
    Key key = new Key(memoryLimit, threads);
    Database open = OPEN.get(key);
    if (open != null) {
      return open;
    }
    Path spill;
    try {
      spill = Files.createTempDirectory("transforms-duckdb-");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the spill folder of DuckDB", e);
    }
    Connection connection = null;
    try {
      connection = DriverManager.getConnection("jdbc:duckdb:");
      Map<String, String> given = new HashMap<>();
      given.put("temp_directory", spill.toString());
      try (Statement st = connection.createStatement()) {
        st.execute("SET temp_directory = " + SqlNames.literal(spill.toString()));
        apply(st, memoryLimitKey, memoryLimit, "memory_limit", given);
        apply(st, threadsKey, threads, "threads", given);
      }
      Database database = new Database(connection.unwrap(DuckDBConnection.class), globalSettings(connection),
          Map.copyOf(given));
      OPEN.put(key, database);
      SPILL_FOLDERS.add(spill);
      if (!cleanupRegistered) {
        cleanupRegistered = true;
        Runtime.getRuntime().addShutdownHook(new Thread(DuckDbDatabases::deleteSpillFolders, "transforms-duckdb-cleanup"));
      }
      return database;
    } catch (SQLException | RuntimeException e) {
      if (connection != null) {
        try {
          connection.close();
        } catch (SQLException closing) {
          e.addSuppressed(closing);
        }
      }
      deleteTree(spill);
      throw e;
    }
  }

  /** The spill folders of the databases this JVM opened. */
  public static synchronized List<Path> spillFolders() {
    return List.copyOf(SPILL_FOLDERS);
  }

  private static void apply(Statement st, String key, String value, String setting, Map<String, String> given) {
    if (value == null) {
      return;
    }
    try {
      st.execute("SET " + setting + " = " + SqlNames.literal(value));
      given.put(setting, value);
    } catch (SQLException e) {
      throw new ConfigurationException("Configuration key '" + key + "' = '" + value + "' is refused by DuckDB: "
          + e.getMessage(), e);
    }
  }

  /** The database's settings of global scope, by name. */
  private static Map<String, String> globalSettings(Connection connection) throws SQLException {
    Map<String, String> settings = new HashMap<>();
    try (Statement st = connection.createStatement();
        ResultSet rows = st.executeQuery("SELECT name, value FROM duckdb_settings() WHERE scope = 'GLOBAL'")) {
      while (rows.next()) {
        settings.put(rows.getString(1), rows.getString(2));
      }
    }
    return settings;
  }

  /**
   * Puts back every global setting of the database that differs from what it was when first opened,
   * and detaches the databases a session attached beyond its own catalogs.
   *
   * @param keep the attached databases to keep (the catalogs of open sessions)
   * @return what could not be put back, empty when everything was
   */
  public static List<String> restore(Connection connection, Database database, java.util.Set<String> keep) {
    List<String> failed = new ArrayList<>();
    try {
      Map<String, String> now = globalSettings(connection);
      for (Map.Entry<String, String> setting : database.settings().entrySet()) {
        String value = now.get(setting.getKey());
        if (value != null && !value.equals(setting.getValue())) {
          put(connection, setting.getKey(), database.given().get(setting.getKey()), failed);
        }
      }
      List<String> attached = new ArrayList<>();
      try (Statement st = connection.createStatement();
          ResultSet rows = st.executeQuery("SELECT database_name FROM duckdb_databases()"
              + " WHERE NOT internal AND database_name <> 'memory'")) {
        while (rows.next()) {
          attached.add(rows.getString(1));
        }
      }
      for (String name : attached) {
        if (!keep.contains(name)) {
          try (Statement st = connection.createStatement()) {
            st.execute("DETACH DATABASE IF EXISTS " + SqlNames.quote(name));
          } catch (SQLException e) {
            failed.add("database " + name + " stays attached: " + e.getMessage());
          }
        }
      }
    } catch (SQLException e) {
      failed.add(e.getMessage());
    }
    return failed;
  }

  /** Puts a global setting back: to the value the engine gave it, or else to DuckDB's default. */
  private static void put(Connection connection, String name, String given, List<String> failed) {
    try (Statement st = connection.createStatement()) {
      st.execute(given == null ? "RESET GLOBAL " + SqlNames.quote(name)
          : "SET GLOBAL " + SqlNames.quote(name) + " = " + SqlNames.literal(given));
    } catch (SQLException e) {
      failed.add("setting " + name + " stays changed: " + e.getMessage());
    }
  }

  private static synchronized void deleteSpillFolders() {
    SPILL_FOLDERS.forEach(DuckDbDatabases::deleteTree);
  }

  static void deleteTree(Path folder) {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A spill file left in the temporary folder is harmless.
    }
  }
}
