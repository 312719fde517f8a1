package dev.transforms.runtime.spi;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.ResolvedTable;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Schema;

/**
 * What a build knows of one input or output of a transform, as lineage describes it: a table (with the
 * schema and snapshot read or published) or files at a location.
 *
 * @param path the dataset path
 * @param table the catalog table it resolves to
 * @param isTable whether it is a table; {@code false} for files
 * @param files where its files are, for file datasets
 * @param schema the table's schema at the snapshot read or published; empty when unknown
 * @param snapshot the snapshot read (inputs) or published (outputs); empty when none
 * @param branch the Iceberg branch read (inputs) or published (outputs) on a branch build; empty on a
 *     build of {@code main}
 */
public record DatasetFacts(DatasetPath path, ResolvedTable table, boolean isTable, Optional<Path> files,
    Optional<Schema> schema, OptionalLong snapshot, Optional<String> branch) {

  /**
   * A table known by its name only.
   *
   * @param path the dataset path
   * @param table the table
   * @return the facts
   */
  public static DatasetFacts named(DatasetPath path, ResolvedTable table) {
    return new DatasetFacts(path, table, true, Optional.empty(), Optional.empty(), OptionalLong.empty(),
        Optional.empty());
  }

  /**
   * Files at a location.
   *
   * @param path the dataset path
   * @param table the table the path would resolve to
   * @param location the folder of the files
   * @return the facts
   */
  public static DatasetFacts files(DatasetPath path, ResolvedTable table, Path location) {
    return new DatasetFacts(path, table, false, Optional.of(location), Optional.empty(), OptionalLong.empty(),
        Optional.empty());
  }

  /**
   * A table read or written at a snapshot.
   *
   * @param path the dataset path
   * @param resolved the table
   * @param schema its schema at that snapshot
   * @param snapshot the snapshot, empty for a table without one
   * @return the facts
   */
  public static DatasetFacts table(DatasetPath path, ResolvedTable resolved, Schema schema, OptionalLong snapshot) {
    return new DatasetFacts(path, resolved, true, Optional.empty(), Optional.ofNullable(schema), snapshot,
        Optional.empty());
  }

  /**
   * The same table as a branch build read or published it, at an Iceberg branch ({@code main} for an
   * input read along the fallbacks to it); files have no branch.
   *
   * @param name the branch
   * @return the facts naming the branch
   */
  public DatasetFacts onBranch(String name) {
    if (!isTable || name == null) {
      return this;
    }
    return new DatasetFacts(path, table, true, files, schema, snapshot, Optional.of(name));
  }

  /**
   * The schema a table had at a snapshot (its current schema when the snapshot is unknown).
   *
   * @param table the table
   * @param snapshot the snapshot
   * @return the schema
   */
  public static Schema schemaAt(org.apache.iceberg.Table table, OptionalLong snapshot) {
    if (snapshot.isPresent()) {
      org.apache.iceberg.Snapshot s = table.snapshot(snapshot.getAsLong());
      if (s != null && s.schemaId() != null && table.schemas().containsKey(s.schemaId())) {
        return table.schemas().get(s.schemaId());
      }
    }
    return table.schema();
  }
}
