package dev.transforms.runtime.spi;

import dev.transforms.api.PublishConflictException;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;

/**
 * Where an engine writes the outputs of one run so that the runtime can publish them all at once, or
 * throw them away: the rows, the shape (schema, partitioning, properties) and, for a new output, the
 * table itself.
 *
 * <p>Every output table the run writes is a <em>staged table</em> ({@link #table}): an Iceberg
 * {@link Table} that engines use as any other. For an output that existed before the run, its writes
 * land on the run's staging branch ({@link #branch}) and its schema, spec, sort order and property
 * changes are held back until the publish; readers of {@code main} see none of it. An output the run
 * creates ({@link #createTable}) is not in the catalog at all until the publish creates it with its
 * rows, in one commit; its writes go to the {@code main} of the staged table. Two builds racing to
 * create one output: the second one's publish fails with {@link PublishConflictException}, and
 * nothing of it remains.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 */
public interface OutputStaging {

  /**
   * The branch every write of this run to an output lands on: the build's staging branch on an output
   * that existed, {@code main} of the staged table on a new one.
   *
   * @param output the output
   * @return the branch name
   */
  String branch(BoundOutput output);

  /**
   * Starts a new output: a table with this schema, spec and properties that exists for this run only,
   * until it is published.
   *
   * @param output the output, which did not exist when the run started
   * @param schema the table schema
   * @param spec the partition spec
   * @param properties further table properties
   * @return the staged table
   * @throws IllegalStateException if the output exists already, or was created in this run
   */
  Table createTable(BoundOutput output, Schema schema, PartitionSpec spec, Map<String, String> properties);

  /**
   * The staged table of an output: the table that existed before the run, in the shape this run gave
   * it, or the one this run created; empty while a new output has not been created.
   *
   * @param output the output
   * @return the table
   */
  Optional<Table> table(BoundOutput output);

  /**
   * Gives a staged output another schema (and partitioning), which the output takes when the run
   * publishes. Columns keep the field ids the schema gives them.
   *
   * @param output the output, which has a staged table
   * @param schema the new schema, with field ids (see {@code SchemaEvolution})
   * @param lastColumnId the highest field id the schema uses or the table used
   * @param spec the new partition spec, bound to the new schema; empty to keep the table's
   * @return the staged table in its new shape
   */
  Table reshape(BoundOutput output, Schema schema, int lastColumnId, Optional<PartitionSpec> spec);

  /**
   * Records what an engine did to put an output in order after builds that died (a file output's
   * leftovers, say), for the build report.
   *
   * @param note one line
   */
  void recovered(String note);

  /**
   * Records that the run edited an output although no snapshot shows it: row edits that ran to the end and
   * found no row to change. A full build publishes only the outputs its run wrote, so that an output the
   * transform left alone (an early return) is not stamped up to date with inputs it never saw; an edited
   * output counts as written, its state is stored and the transform is up to date. Engines call it when a
   * write they hand to users completes without a commit.
   *
   * @param output the output
   */
  void edited(BoundOutput output);
}
