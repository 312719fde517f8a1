package dev.transforms.singlenode.internal.engine;

import dev.transforms.api.ReadMode;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.SqlQueryException;
import dev.transforms.singlenode.SqlSession;
import dev.transforms.singlenode.internal.duckdb.DuckDbDatabases;
import dev.transforms.singlenode.internal.duckdb.DuckDbLibrary;
import dev.transforms.singlenode.internal.duckdb.DuckDbWritePlan;
import dev.transforms.singlenode.internal.duckdb.QueryResultReader;
import dev.transforms.singlenode.internal.duckdb.SessionInput;
import dev.transforms.singlenode.internal.duckdb.SqlNames;
import dev.transforms.singlenode.internal.plan.DirectScan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;

/**
 * The {@link SqlSession} of one transform run: an in-memory catalog of its own, attached to the JVM's
 * DuckDB database of the configured memory limit and threads ({@link DuckDbDatabases}), and the default
 * catalog of the session's connection, so that its names are unqualified. Each registered
 * name is loaded once, on first mention: as a view over the input's Parquet files when DuckDB can read
 * them itself (local files, no deletes; {@link DirectScan}), otherwise into a DuckDB table from the
 * engine's Arrow reader through the Arrow C data interface (a registered Arrow stream can be scanned
 * only once; a table can be joined with itself and queried again). Results leave through DuckDB's
 * Arrow export.
 */
public final class DuckDbSession implements SqlSession, AutoCloseable {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DuckDbSession.class);

  /** Rows per batch of a query's result. */
  private static final int RESULT_BATCH_ROWS = 65_536;

  private final String transformName;
  private final BufferAllocator allocator;
  private final Function<IcebergInput, SessionInput> inputs;
  private final DuckDBConnection connection;
  /** The JVM's database the session's catalog lives in. */
  private final DuckDbDatabases.Database database;
  /** The session's own catalog in that database, where its names live; detached when it closes. */
  private final String catalog;
  /** Registered and not yet loaded, by key. */
  private final Map<String, Registration> pending = new LinkedHashMap<>();
  /** Loaded names, by key. */
  private final Map<String, Loaded> loaded = new LinkedHashMap<>();
  /** Whether inputs whose files DuckDB can read itself become views over those files. */
  private final boolean readParquet;
  /** What each query left open, closed with the session, last first. */
  private final Deque<AutoCloseable> results = new ArrayDeque<>();
  private int streams;
  private boolean closed;

  /** Numbers the sessions' catalogs. */
  private static final java.util.concurrent.atomic.AtomicLong CATALOGS = new java.util.concurrent.atomic.AtomicLong();

  /** The catalogs of open sessions. */
  private static final java.util.Set<String> LIVE_CATALOGS = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** Sessions opened and not yet closed in this JVM, for leak checks. */
  private static final java.util.concurrent.atomic.AtomicInteger OPEN = new java.util.concurrent.atomic.AtomicInteger();

  private record Registration(String name, SessionInput input, ReadMode mode, String filter) {}

  /** A loaded name with its SQL spelling: a view over the input's Parquet files, or a table of its rows. */
  private record Loaded(String name, boolean view) {}

  private DuckDbSession(String transformName, BufferAllocator allocator, Function<IcebergInput, SessionInput> inputs,
      DuckDBConnection connection, DuckDbDatabases.Database database, String catalog, boolean readParquet) {
    this.transformName = transformName;
    this.readParquet = readParquet;
    this.allocator = allocator;
    this.inputs = inputs;
    this.connection = connection;
    this.database = database;
    this.catalog = catalog;
  }

  /**
   * Opens a session: a catalog of its own ({@code ATTACH ':memory:'}) in the JVM's DuckDB database of
   * the configured memory limit and threads ({@link DuckDbDatabases}), every input registered under its
   * default name.
   *
   * @param transformName the transform, for messages
   * @param settings the {@code duckdb.*} configuration keys
   * @param allocator where Arrow batches are allocated (the run's runtime allocator)
   * @param defaults each input's default name, in parameter order
   * @param inputs finds the session input of a handle; null for a handle of no input of this run
   * @return the session; close it
   */
  public static DuckDbSession open(String transformName, Map<String, String> settings, BufferAllocator allocator,
      Map<String, IcebergInput> defaults, Function<IcebergInput, SessionInput> inputs) {
    DuckDBConnection connection = null;
    String catalog = "transforms_session_" + CATALOGS.incrementAndGet();
    try {
      DuckDbDatabases.Database database = DuckDbDatabases.database("duckdb.memory-limit",
          settings.get("duckdb.memory-limit"), "duckdb.threads", settings.get("duckdb.threads"));
      connection = database.root().duplicate();
      try (Statement st = connection.createStatement()) {
        st.execute("ATTACH ':memory:' AS " + SqlNames.quote(catalog));
        LIVE_CATALOGS.add(catalog);
        st.execute("USE " + SqlNames.quote(catalog));
        st.execute("SET SESSION TimeZone = 'UTC'");
      }
      DuckDbSession session = new DuckDbSession(transformName, allocator, inputs, connection, database, catalog,
          DuckDbLibrary.enabled(settings));
      OPEN.incrementAndGet();
      defaults.forEach(session::register);
      return session;
    } catch (SQLException | RuntimeException e) {
      if (connection != null) {
        detach(connection, catalog, e);
        try {
          connection.close();
        } catch (SQLException closing) {
          e.addSuppressed(closing);
        }
      }
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException("Cannot open the DuckDB session of transform " + transformName + ": "
          + e.getMessage(), e);
    }
  }

  /** Drops a session's catalog and everything in it. */
  private static void detach(Connection connection, String catalog, Exception failure) {
    if (!LIVE_CATALOGS.remove(catalog)) {
      return;
    }
    try (Statement st = connection.createStatement()) {
      st.execute("USE memory");
      st.execute("DETACH DATABASE IF EXISTS " + SqlNames.quote(catalog));
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  @Override
  public Connection connection() {
    checkOpen();
    load(List.copyOf(pending.values()));
    return connection;
  }

  @Override
  public void register(String name, IcebergInput input) {
    register(name, input, ReadMode.CURRENT);
  }

  @Override
  public void register(String name, IcebergInput input, ReadMode mode) {
    SqlNames.checkPlain(name);
    Objects.requireNonNull(mode, "Argument mode of register must not be null");
    add(new Registration(name, session(name, input), mode, null));
  }

  @Override
  public void register(String name, IcebergInput input, String filter) {
    SqlNames.checkPlain(name);
    SessionInput session = session(name, input);
    if (filter == null || filter.isBlank()) {
      throw new IllegalArgumentException("Argument filter of register(\"" + name + "\", " + session.path()
          + ", filter) is empty; register the input without a filter to read every row");
    }
    session.checkFilter(filter);
    add(new Registration(name, session, ReadMode.CURRENT, filter));
  }

  private SessionInput session(String name, IcebergInput input) {
    checkOpen();
    SessionInput session = input == null ? null : inputs.apply(input);
    if (session == null) {
      throw new IllegalArgumentException("Argument input of register(\"" + name + "\", ...) must be an input of"
          + " transform " + transformName + ", not " + input);
    }
    return session;
  }

  private void add(Registration registration) {
    String key = SqlNames.key(registration.name());
    Loaded before = loaded.remove(key);
    if (before != null) {
      execute("DROP " + (before.view() ? "VIEW" : "TABLE") + " IF EXISTS " + SqlNames.quote(before.name()),
          "replace " + registration.name());
    }
    pending.put(key, registration);
  }

  @Override
  public ArrowReader query(String sql) {
    checkOpen();
    Objects.requireNonNull(sql, "Argument sql of query must not be null");
    load(pending.values().stream().filter(r -> SqlNames.mentions(sql, r.name())).toList());
    Statement statement = null;
    try {
      statement = connection.createStatement();
      ResultSet rows = statement.executeQuery(sql);
      results.push(statement);
      results.push(rows);
      ArrowReader exported = (ArrowReader) rows.unwrap(DuckDBResultSet.class).arrowExportStream(allocator, RESULT_BATCH_ROWS);
      ArrowReader reader = new QueryResultReader(allocator, exported);
      results.push(reader);
      return reader;
    } catch (SQLException e) {
      if (statement != null && !results.contains(statement)) {
        try {
          statement.close();
        } catch (SQLException closing) {
          e.addSuppressed(closing);
        }
      }
      throw new SqlQueryException("DuckDB failed the query of transform " + transformName + ": " + e.getMessage()
          + "\n  SQL: " + sql, e);
    }
  }

  /**
   * Loads registered names. A name whose rows are exactly a set of local Parquet files with no deletes
   * becomes a view over DuckDB's own reader of those files ({@link DirectScan}), which reads in parallel
   * and only the columns a query needs. Any other name loads into a table of the session's database
   * from one pass of the engine's reader; several such names load at once, each on its own connection
   * to the database (the engine's reader decodes on the calling thread, so this is what uses more than
   * one core), up to the session's thread count.
   */
  private void load(List<Registration> registrations) {
    if (registrations.isEmpty()) {
      return;
    }
    registrations.forEach(r -> pending.remove(SqlNames.key(r.name())));
    List<Registration> rows = new ArrayList<>();
    for (Registration registration : registrations) {
      Optional<DirectScan> files = readParquet
          ? registration.input().direct(registration.mode(), registration.filter()) : Optional.empty();
      if (files.isPresent()) {
        execute("CREATE OR REPLACE VIEW " + SqlNames.quote(registration.name()) + " AS SELECT * FROM "
            + parquetScan(files.get()), "read the Parquet files of " + registration.input().path() + " as "
            + registration.name());
        loaded.put(SqlNames.key(registration.name()), new Loaded(registration.name(), true));
      } else {
        rows.add(registration);
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    // An input's rows have no order to keep, and DuckDB ingests about twice as fast without keeping it.
    // The setting is the loading connection's own (SESSION), and the user's is back in place before any
    // query of theirs runs.
    String keepOrder = setting("preserve_insertion_order", "true");
    execute("SET SESSION preserve_insertion_order = false", "prepare loading inputs");
    try {
      loadAll(rows);
    } finally {
      execute("SET SESSION preserve_insertion_order = " + ("false".equalsIgnoreCase(keepOrder) ? "false" : "true"),
          "restore preserve_insertion_order");
    }
    rows.forEach(r -> loaded.put(SqlNames.key(r.name()), new Loaded(r.name(), false)));
  }

  private void loadAll(List<Registration> registrations) {
    int parallel = Math.min(registrations.size(), threads());
    if (parallel <= 1) {
      for (Registration registration : registrations) {
        load(registration, connection, "__transforms_rows_" + (++streams));
      }
    } else {
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(parallel, task -> {
        Thread thread = new Thread(task, "transforms-sql-load");
        thread.setDaemon(true);
        return thread;
      });
      try {
        List<java.util.concurrent.Future<?>> loads = new ArrayList<>();
        for (Registration registration : registrations) {
          String stream = "__transforms_rows_" + (++streams);
          loads.add(pool.submit(() -> {
            try (DuckDBConnection own = connection.duplicate(); Statement st = own.createStatement()) {
              // a new connection starts in the database's default catalog, and with its settings
              st.execute("USE " + SqlNames.quote(catalog));
              st.execute("SET SESSION preserve_insertion_order = false");
              st.execute("SET SESSION TimeZone = 'UTC'");
              load(registration, own, stream);
            } catch (SQLException e) {
              throw new SqlQueryException("DuckDB failed to open a connection to load " + registration.name()
                  + " for transform " + transformName + ": " + e.getMessage(), e);
            }
            return null;
          }));
        }
        RuntimeException failure = null;
        for (java.util.concurrent.Future<?> load : loads) {
          try {
            load.get();
          } catch (java.util.concurrent.ExecutionException e) {
            RuntimeException cause = e.getCause() instanceof RuntimeException runtime ? runtime
                : new IllegalStateException(e.getCause().getMessage(), e.getCause());
            if (failure == null) {
              failure = cause;
            } else {
              failure.addSuppressed(cause);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while loading inputs for transform " + transformName, e);
          }
        }
        if (failure != null) {
          throw failure;
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  private int threads() {
    try {
      return Math.max(1, Integer.parseInt(setting("threads", "1")));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private String setting(String name, String fallback) {
    try (Statement st = connection.createStatement();
        ResultSet value = st.executeQuery("SELECT current_setting('" + name + "')")) {
      return value.next() && value.getString(1) != null ? value.getString(1) : fallback;
    } catch (SQLException e) {
      return fallback;
    }
  }

  /** Loads one name through a connection. */
  private void load(Registration registration, DuckDBConnection through, String stream) {
    try (ArrowReader rows = registration.input().open(registration.mode(), registration.filter(), allocator);
        ArrowArrayStream exported = ArrowArrayStream.allocateNew(allocator)) {
      Data.exportArrayStream(allocator, rows, exported);
      through.registerArrowStream(stream, exported);
      try (Statement st = through.createStatement()) {
        st.execute("CREATE OR REPLACE TABLE " + SqlNames.quote(registration.name()) + " AS SELECT "
            + projection(registration.input().schema()) + " FROM " + stream);
      } catch (SQLException e) {
        throw new SqlQueryException("DuckDB failed to load " + registration.name() + " from "
            + registration.input().path() + " for transform " + transformName + ": " + e.getMessage(), e);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + registration.input().path() + " for the SQL name "
          + registration.name() + " of transform " + transformName, e);
    }
  }

  /**
   * The columns of an input as loaded: Iceberg {@code uuid} columns, which reach DuckDB as 16-byte
   * blobs, become DuckDB {@code UUID}s so that they compare with UUID literals.
   */
  private static String projection(org.apache.iceberg.Schema schema) {
    List<String> columns = new ArrayList<>();
    for (Types.NestedField column : schema.columns()) {
      String name = SqlNames.quote(column.name());
      if (column.type().typeId() == Type.TypeID.UUID) {
        columns.add("CAST(regexp_replace(hex(" + name + "), '^(.{8})(.{4})(.{4})(.{4})(.{12})$', '\\1-\\2-\\3-\\4-\\5')"
            + " AS UUID) AS " + name);
      } else {
        columns.add(name);
      }
    }
    return columns.isEmpty() ? "*" : String.join(", ", columns);
  }

  private void execute(String sql, String what) {
    try (Statement st = connection.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new SqlQueryException("DuckDB failed to " + what + " for transform " + transformName + ": "
          + e.getMessage(), e);
    }
  }


  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("The SQL session of transform " + transformName
          + " is closed: it lives until the transform method returns");
    }
  }

  /**
   * Closes every result, drops the session's catalog (every view and table in it), puts back the global
   * settings the session changed, and closes the connection.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    OPEN.decrementAndGet();
    RuntimeException failure = null;
    while (!results.isEmpty()) {
      try {
        results.pop().close();
      } catch (Exception e) {
        failure = failure == null ? new IllegalStateException("Cannot close a query result of transform "
            + transformName + ": " + e.getMessage(), e) : failure;
      }
    }
    IllegalStateException detaching = new IllegalStateException("Cannot drop the DuckDB catalog of transform "
        + transformName);
    detach(connection, catalog, detaching);
    if (detaching.getSuppressed().length > 0 && failure == null) {
      failure = new IllegalStateException(detaching.getMessage() + ": " + detaching.getSuppressed()[0].getMessage(),
          detaching.getSuppressed()[0]);
    }
    List<String> changed = DuckDbDatabases.restore(connection, database, LIVE_CATALOGS);
    if (!changed.isEmpty()) {
      LOG.warn("The SQL session of transform {} changed DuckDB's database for the whole JVM and not all of it"
          + " could be put back: {}", transformName, String.join("; ", changed));
    }
    try {
      connection.close();
    } catch (SQLException e) {
      failure = failure == null ? new IllegalStateException("Cannot close the DuckDB session of transform "
          + transformName + ": " + e.getMessage(), e) : failure;
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** The number of sessions of this JVM that are open (their DuckDB connection too). */
  public static int openSessions() {
    return OPEN.get();
  }

  /**
   * The spill folders of this JVM's DuckDB databases, one per database, deleted when the JVM exits.
   *
   * @return the folders, in the order the databases opened
   */
  public static List<Path> spillFolders() {
    return DuckDbDatabases.spillFolders();
  }

  /**
   * A DuckDB table function call that reads the files: {@code read_parquet} over the file list, with each
   * column found by its field id and typed as the engine's reader would load it.
   */
  private static String parquetScan(DirectScan scan) {
    StringBuilder sql = new StringBuilder("read_parquet([");
    List<java.nio.file.Path> paths = scan.paths();
    for (int i = 0; i < paths.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append(SqlNames.literal(paths.get(i).toString()));
    }
    sql.append("], schema = MAP {");
    List<Types.NestedField> columns = scan.schema().columns();
    for (int i = 0; i < columns.size(); i++) {
      Types.NestedField column = columns.get(i);
      sql.append(i == 0 ? "" : ", ").append(column.fieldId())
          .append(": {name: ").append(SqlNames.literal(column.name()))
          .append(", type: ").append(SqlNames.literal(DuckDbWritePlan.sqlType(column.type()).orElseThrow()))
          .append(", default_value: NULL}");
    }
    return sql.append("})").toString();
  }
}
