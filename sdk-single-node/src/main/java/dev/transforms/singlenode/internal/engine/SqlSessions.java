package dev.transforms.singlenode.internal.engine;

import dev.transforms.runtime.spi.TransformRun;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.SqlSession;
import dev.transforms.singlenode.internal.duckdb.SqlNames;
import dev.transforms.singlenode.internal.engine.DuckDbSession;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Opens the SQL session of a run, after checking that its optional dependencies are on the classpath
 * (DuckDB's classes are touched only once they are known to be there).
 */
final class SqlSessions {

  private static final String[][] REQUIRED = {
      {"org.duckdb.DuckDBConnection", "org.duckdb:duckdb_jdbc"},
      {"org.apache.arrow.c.Data", "org.apache.arrow:arrow-c-data"},
  };

  private SqlSessions() {}

  /**
   * Opens the session of a run and hands it to the run's memory, which closes it after the method.
   *
   * @param inputs the run's input handles, by parameter name, in parameter order
   */
  static SqlSession open(TransformRun run, RunMemory memory, Map<String, IcebergInputHandle> inputs) {
    checkAvailable(run.spec().name(), SqlSessions.class.getClassLoader());
    return open(run.spec().name(), run.build().config().duckdbProperties(), memory, inputs);
  }

  /**
   * Fails, naming what is missing and what to add, unless DuckDB and the Arrow C data interface can be
   * loaded.
   */
  static void checkAvailable(String transformName, ClassLoader loader) {
    List<String> missing = new ArrayList<>();
    for (String[] required : REQUIRED) {
      try {
        Class.forName(required[0], false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        missing.add(required[1]);
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException("Transform " + transformName + " calls sql(), which needs "
          + String.join(" and ", missing) + " on the classpath: add the dependencies org.duckdb:duckdb_jdbc and "
          + "org.apache.arrow:arrow-c-data (optional dependencies of dev.transforms:sdk-single-node; versions in "
          + "the transforms BOM)");
    }
  }

  /** Opens a session once DuckDB is known to be there. */
  private static SqlSession open(String transformName, Map<String, String> settings, RunMemory memory,
      Map<String, IcebergInputHandle> inputs) {
    List<SqlNames.Parameter> parameters = new ArrayList<>();
    List<IcebergInputHandle> handles = new ArrayList<>(inputs.values());
    inputs.forEach((name, handle) -> parameters.add(new SqlNames.Parameter(name, handle.lastPathSegment())));
    List<String> names = SqlNames.defaults(parameters);
    Map<String, IcebergInput> defaults = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      defaults.put(names.get(i), handles.get(i));
    }
    DuckDbSession session = DuckDbSession.open(transformName, settings, memory.runtime(), defaults,
        input -> input instanceof IcebergInputHandle handle && handles.contains(handle) ? handle : null);
    return memory.own(session);
  }
}
