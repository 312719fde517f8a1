package dev.transforms.singlenode.internal.duckdb;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Whether DuckDB and Arrow's C data interface, optional dependencies of the single-node engine, are on
 * the classpath and the C data interface works in this JVM (Java 17 needs
 * {@code --add-opens=java.base/java.nio=ALL-UNNAMED} for it; see {@code cDataWorks}). Paths that hand
 * work to DuckDB check this first and otherwise stay in Java.
 */
public final class DuckDbLibrary {

  private static final boolean PRESENT = loadable("org.duckdb.DuckDBConnection") && loadable("org.apache.arrow.c.Data")
      && cDataWorks();

  private DuckDbLibrary() {}

  /**
   * Whether both libraries can be loaded.
   *
   * @return true when DuckDB's JDBC driver and {@code arrow-c-data} are there and work
   */
  public static boolean present() {
    return PRESENT;
  }

  /**
   * Whether Arrow's C data interface works in this JVM: it needs {@code java.nio}'s direct-buffer
   * constructor, which Java 17 only opens with {@code --add-opens=java.base/java.nio=ALL-UNNAMED}. Without
   * it, exporting a stream fails (after allocating), so writers check first and keep to the Java path.
   * Asks Arrow for a direct buffer over no memory, as the C data interface does for every structure it
   * allocates (allocating one and failing would leave it allocated).
   */
  private static boolean cDataWorks() {
    try {
      MemoryUtil.directBuffer(0L, 0);
      return true;
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  /** Whether a class of an optional library is on the class path, without initializing it. */
  public static boolean loadable(String className) {
    try {
      Class.forName(className, false, DuckDbLibrary.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * Whether the single-node engine hands Parquet reads and writes to DuckDB: the libraries are present
   * and the configuration does not set {@code duckdb.parquet=false}.
   *
   * @param settings the {@code duckdb.*} configuration keys (checked when the configuration loads)
   * @return whether DuckDB may read and write Parquet files
   */
  public static boolean enabled(java.util.Map<String, String> settings) {
    return PRESENT && !"false".equalsIgnoreCase(settings.getOrDefault("duckdb.parquet", "true").strip());
  }
}
