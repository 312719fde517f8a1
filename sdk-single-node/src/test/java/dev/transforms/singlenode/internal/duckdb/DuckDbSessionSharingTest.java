package dev.transforms.singlenode.internal.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import dev.transforms.api.ConfigurationException;
import dev.transforms.singlenode.internal.engine.DuckDbSession;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sessions share the JVM's DuckDB database, each in a catalog of its own: what one session creates,
 * changes or attaches is neither seen by another nor left behind when it closes.
 */
class DuckDbSessionSharingTest {

  private BufferAllocator allocator;

  @BeforeEach
  void allocate() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void checkMemory() {
    assertThat(allocator.getAllocatedMemory()).as("Arrow memory left").isZero();
    allocator.close();
  }

  private DuckDbSession open(String name, Map<String, String> settings) {
    return DuckDbSession.open(name, settings, allocator, Map.of(), input -> null);
  }

  private static void run(DuckDbSession session, String sql) throws SQLException {
    try (Statement st = session.connection().createStatement()) {
      st.execute(sql);
    }
  }

  private static String value(Connection connection, String sql) throws SQLException {
    try (Statement st = connection.createStatement(); ResultSet rows = st.executeQuery(sql)) {
      return rows.next() ? rows.getString(1) : null;
    }
  }

  private static List<String> databases() throws SQLException {
    List<String> names = new ArrayList<>();
    try (Connection connection = DuckDbParquetWriter.connect(); Statement st = connection.createStatement();
        ResultSet rows = st.executeQuery("SELECT database_name FROM duckdb_databases() WHERE NOT internal ORDER BY 1")) {
      while (rows.next()) {
        names.add(rows.getString(1));
      }
    }
    return names;
  }

  @Test
  void sessionsOpenAtOnceSeeOnlyTheirOwnNames() throws SQLException {
    List<String> before = databases();
    try (DuckDbSession first = open("first", Map.of()); DuckDbSession second = open("second", Map.of())) {
      run(first, "CREATE TABLE shared_name AS SELECT 1 AS v");
      run(second, "CREATE TABLE shared_name AS SELECT 2 AS v");
      run(first, "CREATE VIEW only_first AS SELECT 3 AS v");
      assertThat(value(first.connection(), "SELECT v FROM shared_name")).isEqualTo("1");
      assertThat(value(second.connection(), "SELECT v FROM shared_name")).isEqualTo("2");
      assertThat(catchThrowable(() -> value(second.connection(), "SELECT v FROM only_first")))
          .hasMessageContaining("only_first");
      assertThat(databases()).hasSize(before.size() + 2);
      first.close();
      assertThat(value(second.connection(), "SELECT v FROM shared_name")).isEqualTo("2");
      assertThat(databases()).hasSize(before.size() + 1);
    }
    assertThat(databases()).as("every session's catalog is dropped when it closes").isEqualTo(before);
  }

  @Test
  void whatASessionChangesForTheWholeDatabaseIsPutBack() throws SQLException {
    String threads;
    String memory;
    try (Connection connection = DuckDbParquetWriter.connect()) {
      threads = value(connection, "SELECT current_setting('threads')");
      memory = value(connection, "SELECT current_setting('memory_limit')");
    }
    List<String> before = databases();
    try (DuckDbSession session = open("changes", Map.of())) {
      run(session, "SET threads = 1");
      run(session, "SET GLOBAL memory_limit = '123MB'");
      run(session, "ATTACH ':memory:' AS side_database");
      assertThat(value(session.connection(), "SELECT current_setting('threads')")).isEqualTo("1");
      assertThat(databases()).contains("side_database");
    }
    try (Connection connection = DuckDbParquetWriter.connect()) {
      assertThat(value(connection, "SELECT current_setting('threads')")).isEqualTo(threads);
      assertThat(value(connection, "SELECT current_setting('memory_limit')")).isEqualTo(memory);
    }
    assertThat(databases()).isEqualTo(before);
  }

  @Test
  void configuredSettingsGetADatabaseOfTheirOwn() throws SQLException {
    try (DuckDbSession configured = open("configured", Map.of("duckdb.threads", "1", "duckdb.memory-limit", "200MB"));
        DuckDbSession defaults = open("defaults", Map.of())) {
      assertThat(value(configured.connection(), "SELECT current_setting('threads')")).isEqualTo("1");
      assertThat(value(configured.connection(), "SELECT current_setting('memory_limit')")).matches("19[0-9](\\.[0-9]+)? MiB");
      assertThat(value(defaults.connection(), "SELECT current_setting('threads')"))
          .isEqualTo(String.valueOf(Runtime.getRuntime().availableProcessors()));
      assertThat(value(configured.connection(), "SELECT current_setting('TimeZone')")).isEqualTo("UTC");
    }
  }

  @Test
  void aRefusedSettingNamesItsKeyAndOpensNothing() throws SQLException {
    List<String> before = databases();
    assertThat(catchThrowable(() -> open("refused", Map.of("duckdb.memory-limit", "plenty"))))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Configuration key 'duckdb.memory-limit' = 'plenty'");
    assertThat(DuckDbSession.openSessions()).isZero();
    assertThat(databases()).isEqualTo(before);
  }

  @Test
  void aResultClosedEarlyIsClosedOnce() throws IOException {
    try (DuckDbSession session = open("early", Map.of())) {
      try (ArrowReader rows = session.query("SELECT range AS n FROM range(100000)")) {
        assertThat(rows.loadNextBatch()).isTrue();
        assertThat(rows.getVectorSchemaRoot().getRowCount()).isPositive();
      }
      ArrowReader unread = session.query("SELECT 1 AS one");
      assertThat(unread).isNotNull();
    }
  }
}
