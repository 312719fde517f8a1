package dev.transforms.runtime.internal.publish;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

/**
 * A JDBC driver for tests that hands out SQLite connections ({@code jdbc:counting:sqlite:FILE}) and counts
 * the database commits that changed a table's row of Iceberg's JDBC catalog: each {@code UPDATE
 * iceberg_tables SET metadata_location} that changed a row in auto-commit mode, and each {@code commit()}
 * of a transaction that ran one. It can also run a hook once, when a connection next starts a transaction
 * ({@code setAutoCommit(false)}), to play another writer that commits just before it.
 */
final class CountingSqlite implements Driver {

  static final String PREFIX = "jdbc:counting:";

  /** The catalog commits counted since the last {@link #reset()}. */
  static final AtomicInteger COMMITS = new AtomicInteger();

  /** Run once when a connection next turns auto-commit off, then cleared. */
  static final AtomicReference<Runnable> BEFORE_TRANSACTION = new AtomicReference<>();

  static {
    try {
      DriverManager.registerDriver(new CountingSqlite());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private CountingSqlite() {}

  /** The URI of a SQLite file through this driver; registers the driver. */
  static String uri(java.nio.file.Path database) {
    return PREFIX + "sqlite:" + database;
  }

  static void reset() {
    COMMITS.set(0);
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    Connection sqlite = DriverManager.getConnection("jdbc:" + url.substring(PREFIX.length()), info);
    return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
        new Counted(sqlite));
  }

  /** Counts the catalog's commits on one connection. */
  private static final class Counted implements InvocationHandler {
    private final Connection connection;
    private boolean pending;

    Counted(Connection connection) {
      this.connection = connection;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      switch (method.getName()) {
        case "setAutoCommit" -> {
          Runnable hook = Boolean.FALSE.equals(args[0]) ? BEFORE_TRANSACTION.getAndSet(null) : null;
          if (hook != null) {
            hook.run();
          }
        }
        case "commit" -> {
          Object result = call(method, args);
          if (pending) {
            COMMITS.incrementAndGet();
          }
          pending = false;
          return result;
        }
        case "rollback" -> pending = false;
        case "prepareStatement" -> {
          PreparedStatement statement = (PreparedStatement) call(method, args);
          String sql = String.valueOf(args[0]).strip();
          if (!sql.startsWith("UPDATE iceberg_tables SET metadata_location")) {
            return statement;
          }
          return Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
              new Class<?>[] {PreparedStatement.class}, (p, m, a) -> {
                Object result = invokeOn(statement, m, a);
                if (m.getName().equals("executeUpdate") && ((Integer) result) > 0) {
                  if (connection.getAutoCommit()) {
                    COMMITS.incrementAndGet();
                  } else {
                    pending = true;
                  }
                }
                return result;
              });
        }
        default -> { }
      }
      return call(method, args);
    }

    private Object call(Method method, Object[] args) throws Throwable {
      return invokeOn(connection, method, args);
    }
  }

  private static Object invokeOn(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Override
  public boolean acceptsURL(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    return new DriverPropertyInfo[0];
  }

  @Override
  public int getMajorVersion() {
    return 1;
  }

  @Override
  public int getMinorVersion() {
    return 0;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }
}
