package dev.transforms.spark;

import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.OutputStaging;
import dev.transforms.runtime.spi.TransformRun;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.spark.sql.SparkSession;

/**
 * The outputs of the transform running in a Spark session, found by a key the session holds, so that
 * {@link TransformsSparkCatalog} can send every write to them to the staging branch.
 *
 * <p>The engine sets {@value #SESSION_KEY} in the session of the run's lane while the method runs; the
 * catalog, called by Spark from anywhere in the method, reads it from the active session. The key is
 * the staging branch and the transform's name: transforms of one build running at once share the
 * branch's name, each in a session of its own.
 */
final class RunningOutputs {

  /** The session setting naming the running transform: its staging branch, then its name. */
  static final String SESSION_KEY = "spark.transforms.staging-branch";

  private static final Map<String, RunningOutputs> BY_KEY = new ConcurrentHashMap<>();

  private final TransformRun run;

  private RunningOutputs(TransformRun run) {
    this.run = run;
  }

  /**
   * Registers a run while its method runs.
   *
   * @param run the run
   * @return the registration, closed when the method ends
   */
  static RunningOutputs register(TransformRun run) {
    RunningOutputs outputs = new RunningOutputs(run);
    BY_KEY.put(key(run), outputs);
    return outputs;
  }

  /**
   * The value of {@value #SESSION_KEY} while a run's method runs.
   *
   * @param run the run
   * @return its staging branch and transform name
   */
  static String key(TransformRun run) {
    return run.stagingBranch() + "/" + run.spec().name();
  }

  /** Ends the registration. */
  void unregister() {
    BY_KEY.remove(key(run), this);
  }

  /**
   * The outputs of the transform running in the active session, if one is.
   *
   * @return the running outputs
   */
  static Optional<RunningOutputs> active() {
    scala.Option<SparkSession> active = SparkSession.getActiveSession();
    scala.Option<SparkSession> chosen = active.isDefined() ? active : SparkSession.getDefaultSession();
    if (chosen.isEmpty()) {
      return Optional.empty();
    }
    String key = chosen.get().conf().get(SESSION_KEY, null);
    return key == null || key.isEmpty() ? Optional.empty() : Optional.ofNullable(BY_KEY.get(key));
  }

  String branch() {
    return run.stagingBranch();
  }

  TransformRun run() {
    return run;
  }

  OutputStaging staging() {
    return run.staging();
  }

  String transform() {
    return run.spec().name();
  }

  /**
   * The output of the running transform that a catalog table is, if it is one.
   *
   * @param catalog the Spark catalog's name
   * @param identifier the table in that catalog
   * @return the output
   */
  Optional<BoundOutput> output(String catalog, TableIdentifier identifier) {
    return run.outputs().stream()
        .filter(o -> o.fileLocation().isEmpty() && o.resolved().catalog().equals(catalog)
            && o.resolved().identifier().equals(identifier))
        .findFirst();
  }

  /**
   * The output of the running transform that an Iceberg table is, by the table's identity.
   *
   * @param table a loaded table
   * @return the output
   */
  Optional<BoundOutput> outputOf(Table table) {
    return run.outputs().stream()
        .filter(o -> o.fileLocation().isEmpty()
            && run.staging().table(o).map(t -> t.uuid().equals(table.uuid())).orElse(false))
        .findFirst();
  }
}
