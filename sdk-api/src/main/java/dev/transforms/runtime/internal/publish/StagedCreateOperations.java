package dev.transforms.runtime.internal.publish;

import dev.transforms.api.TransformsException;
import dev.transforms.runtime.Locations;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.BaseTransaction;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * A new output as the build that creates it writes it: the table, its schema, partitioning,
 * properties and snapshots live in this process only, and nothing of it is in the catalog until the
 * build publishes. Publication is the catalog's own create commit ({@link #create}), the one Iceberg's
 * atomic {@code CREATE TABLE AS SELECT} uses: the table appears with its rows, its first snapshot
 * holding them, or, when another build created the table first, not at all.
 *
 * <p>The build's files (data, deletes, manifests, manifest lists) are written under the table's
 * location with names that start with {@code transforms-BUILD-}, and a lease file beside them
 * ({@link StagedCreateFiles}), so that whatever a build that died leaves there is found and removed by
 * the next build that creates the table. Writes go to {@code main} of the in-memory table: no other
 * branch exists until the table does.
 */
final class StagedCreateOperations implements TableOperations {

  private final TableOperations catalogOperations;
  private final String buildId;
  private final String output;
  private TableMetadata current;

  private StagedCreateOperations(TableOperations catalogOperations, TableMetadata start, String buildId,
      String output) {
    this.catalogOperations = catalogOperations;
    this.current = start;
    this.buildId = buildId;
    this.output = output;
  }

  /**
   * Starts the creation of a table, without creating it: the catalog settles its location and
   * initial metadata (a REST catalog stages the creation on the server).
   *
   * @param catalog the catalog
   * @param identifier the table
   * @param schema its schema
   * @param spec its partition spec
   * @param properties its properties
   * @param buildId the build
   * @param output the output, for messages
   * @return the operations the build writes through
   */
  static StagedCreateOperations start(Catalog catalog, TableIdentifier identifier, Schema schema, PartitionSpec spec,
      Map<String, String> properties, String buildId, String output) {
    Transaction creation = catalog.buildTable(identifier, schema).withPartitionSpec(spec).withProperties(properties)
        .createTransaction();
    if (!(creation instanceof BaseTransaction staged)) {
      throw new TransformsException("Catalog of output " + output + " stages table creations in a way this SDK does "
          + "not know (" + creation.getClass().getName() + "); create the table before the first build");
    }
    refuseUriSyntax(staged.currentMetadata().location(), output);
    return new StagedCreateOperations(staged.underlyingOps(), staged.currentMetadata(), buildId, output);
  }

  /**
   * Refuses a new table on an object store whose location holds {@code #} or {@code ?}: object stores' file IO
   * (S3, GCS, Azure) reads a location as a URI and cuts it there, so the table's files would land at another key
   * than its metadata names. Dataset paths cannot hold either; a catalog's warehouse can. A local folder can too
   * ({@code /home/me/C#/warehouse}): the local file system takes the path as written.
   */
  static void refuseUriSyntax(String location, String output) {
    if (location == null || Locations.localPath(location).isPresent()) {
      return;
    }
    for (char c : new char[] {'#', '?'}) {
      if (location.indexOf(c) >= 0) {
        throw new TransformsException("Cannot create output " + output + ": its catalog places it at " + location
            + ", which holds '" + c + "'; object stores read a location as a URI and cut it at '" + c
            + "', so the table's files would land where its metadata cannot find them. Give the catalog a warehouse "
            + "location without '#' or '?'");
      }
    }
  }

  @Override
  public synchronized TableMetadata current() {
    return current;
  }

  @Override
  public synchronized TableMetadata refresh() {
    return current;
  }

  @Override
  public synchronized void commit(TableMetadata base, TableMetadata metadata) {
    if (base != current) {
      throw new CommitFailedException("Cannot commit to new output %s: its metadata changed since it was read", output);
    }
    List<MetadataUpdate> changes = metadata.changes().subList(base.changes().size(), metadata.changes().size());
    for (MetadataUpdate change : changes) {
      String refused = null;
      if (change instanceof MetadataUpdate.SetSnapshotRef ref && !SnapshotRef.MAIN_BRANCH.equals(ref.name())) {
        refused = "creating branch or tag '" + ref.name() + "'";
      } else if (change instanceof MetadataUpdate.SetLocation) {
        refused = "a location change";
      }
      if (refused != null) {
        throw new TransformsException("New output " + output + " refuses " + refused + " while the transform that "
            + "creates it runs; do it once the table is published");
      }
    }
    current = metadata;
  }

  /**
   * Creates the table in the catalog with everything the build wrote, in one commit.
   *
   * @param properties properties to store with it (the build's state)
   * @throws org.apache.iceberg.exceptions.AlreadyExistsException if another build created it first
   */
  synchronized void create(Map<String, String> properties) {
    TableMetadata finished = properties.isEmpty() ? current
        : TableMetadata.buildFrom(current).setProperties(properties).build();
    catalogOperations.commit(null, finished);
    current = finished;
  }

  /** The prefix of the names of the build's files. */
  String filePrefix() {
    return StagedCreateFiles.prefix(buildId);
  }

  @Override
  public FileIO io() {
    return catalogOperations.io();
  }

  @Override
  public EncryptionManager encryption() {
    return catalogOperations.encryption();
  }

  @Override
  public String metadataFileLocation(String fileName) {
    TableMetadata metadata = current();
    String folder = metadata.properties().get(TableProperties.WRITE_METADATA_LOCATION);
    String base = folder != null ? folder.replaceAll("/+$", "") : metadata.location().replaceAll("/+$", "") + "/metadata";
    return base + "/" + filePrefix() + fileName;
  }

  @Override
  public LocationProvider locationProvider() {
    TableMetadata metadata = current();
    return new PrefixedNames(LocationProviders.locationsFor(metadata.location(), metadata.properties()), filePrefix());
  }

  @Override
  public long newSnapshotId() {
    return catalogOperations.newSnapshotId();
  }

  /** A table's locations, with the file names a build's prefix before them. */
  private record PrefixedNames(LocationProvider locations, String prefix) implements LocationProvider {
    @Override
    public String newDataLocation(String filename) {
      return locations.newDataLocation(prefix + filename);
    }

    @Override
    public String newDataLocation(PartitionSpec spec, StructLike partitionData, String filename) {
      return locations.newDataLocation(spec, partitionData, prefix + filename);
    }
  }
}
