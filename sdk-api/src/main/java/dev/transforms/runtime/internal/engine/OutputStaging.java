package dev.transforms.runtime.internal.engine;

import dev.transforms.api.PublishConflictException;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;

/**
 * Where an engine writes the outputs of one run so that the runtime can publish them all at once, or
 * throw them away.
 *
 * <p>Every output table gets the run's {@link #branch() staging branch}; engines send every write of
 * the run there and nothing to {@code main}. An output that existed before the run has its branch
 * already. An output the run creates is created empty on {@code main} (readers see an empty table
 * until the publish) and gets its branch at once, through {@link #createTable} or, for an engine that
 * creates tables itself, through {@link #creationProperties()} and {@link #registerCreated}. Two
 * builds racing to create one output: the second one's creation fails with
 * {@link PublishConflictException}, and nothing of the first is touched.
 */
public interface OutputStaging {

  /**
   * The branch every write of this run lands on.
   *
   * @return the staging branch name
   */
  String branch();

  /**
   * The table properties a new output must be created with: this build's lease and the mark that it
   * is not published yet. Engines that create tables themselves add them to the creation.
   *
   * @return the properties
   */
  Map<String, String> creationProperties();

  /**
   * Creates a new output table, empty on {@code main}, with its staging branch.
   *
   * @param output the output, which did not exist when the run started
   * @param schema the table schema
   * @param spec the partition spec
   * @param properties further table properties
   * @return the created table
   * @throws PublishConflictException if another build created the table first
   */
  Table createTable(BoundOutput output, Schema schema, PartitionSpec spec, Map<String, String> properties);

  /**
   * Takes over a table an engine created with {@link #creationProperties()}: checks it is this run's,
   * and cuts the staging branch.
   *
   * @param output the output
   * @return the table, with the staging branch
   * @throws PublishConflictException if the table was created by another build
   */
  Table registerCreated(BoundOutput output);

  /**
   * The table of an output as this run writes it: the table that existed before the run, or the one
   * this run created; empty while a new output has not been created.
   *
   * @param output the output
   * @return the table
   */
  Optional<Table> table(BoundOutput output);

  /**
   * Records what an engine did to put an output in order after builds that died (a file output's
   * leftovers, say), for the build report.
   *
   * @param note one line
   */
  void recovered(String note);

  /**
   * The error for a new output that another build created while this run ran.
   *
   * @param output the output
   * @param cause what the catalog said, or null
   * @return the exception to throw
   */
  PublishConflictException createdElsewhere(BoundOutput output, Throwable cause);
}
