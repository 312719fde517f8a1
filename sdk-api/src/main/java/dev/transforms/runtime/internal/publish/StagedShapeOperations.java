package dev.transforms.runtime.internal.publish;

import dev.transforms.api.TransformsException;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * An existing output as a running build writes it: the build's data commits reach the catalog on its
 * staging branch, as in any write-audit-publish, while the table-level changes it makes (schema,
 * partition spec, sort order, properties) are held back as its {@link StagedShape} until it publishes.
 *
 * <p>The build sees the table in its own shape ({@link #current()}), so a write with a new column, an
 * {@code ALTER TABLE} or {@code updateSchema()} on the output behaves as on any table. On commit, a
 * writer's changes are split: snapshots and the staging branch go to the catalog; new schemas, specs
 * and sort orders go there as additions no reader of {@code main} uses; which of them is current, and
 * the property changes, go into the build's shape mark. Readers of {@code main} keep seeing the
 * previous table until the publishing commit applies the shape with the rows. A commit that would move
 * {@code main} or another branch, relocate the table or upgrade its format is refused; snapshot expiry
 * and statistics pass through, as they change nothing readers of {@code main} see.
 */
final class StagedShapeOperations implements TableOperations {

  private final TableOperations table;
  private final String buildId;
  private final String branch;
  private final String output;
  /** The committed metadata {@link #shown} was made from. */
  private TableMetadata committed;
  private TableMetadata shown;

  /**
   * Wraps an output's operations for one build.
   *
   * @param table the output's operations, as the catalog loads them
   * @param buildId the build
   * @param branch the build's staging branch
   * @param output the output, for messages
   */
  StagedShapeOperations(TableOperations table, String buildId, String branch, String output) {
    this.table = table;
    this.buildId = buildId;
    this.branch = branch;
    this.output = output;
  }

  @Override
  public TableMetadata current() {
    return show(table.current());
  }

  @Override
  public TableMetadata refresh() {
    return show(table.refresh());
  }

  /** The committed metadata, as the catalog has it now. */
  TableMetadata committed() {
    return table.refresh();
  }

  /** The catalog's operations of the output. */
  TableOperations catalogOperations() {
    return table;
  }

  private synchronized TableMetadata show(TableMetadata metadata) {
    if (metadata != committed) {
      committed = metadata;
      shown = StagedShape.staged(metadata, buildId).map(shape -> shape.overlay(metadata)).orElse(metadata);
    }
    return shown;
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    TableMetadata start;
    synchronized (this) {
      start = base == shown || base == committed ? committed : null;
    }
    if (start == null) {
      throw new CommitFailedException("Cannot commit to output %s: its metadata changed since it was read", output);
    }
    List<MetadataUpdate> changes = metadata.changes().subList(base.changes().size(), metadata.changes().size());
    TableMetadata.Builder builder = TableMetadata.buildFrom(start);
    boolean addsSpecsOrOrders = false;
    for (MetadataUpdate change : changes) {
      if (change instanceof MetadataUpdate.AddSchema) {
        change.applyTo(builder);
      }
      addsSpecsOrOrders |= change instanceof MetadataUpdate.AddPartitionSpec
          || change instanceof MetadataUpdate.AddSortOrder;
    }
    if (addsSpecsOrOrders) {
      // A spec or sort order is bound to the current schema: add them under the build's schema.
      boolean switchSchema = metadata.currentSchemaId() != start.currentSchemaId();
      if (switchSchema) {
        builder.setCurrentSchema(metadata.currentSchemaId());
      }
      for (MetadataUpdate change : changes) {
        if (change instanceof MetadataUpdate.AddPartitionSpec || change instanceof MetadataUpdate.AddSortOrder) {
          change.applyTo(builder);
        }
      }
      if (switchSchema) {
        builder.setCurrentSchema(start.currentSchemaId());
      }
    }
    for (MetadataUpdate change : changes) {
      if (!isShapeChange(change)) {
        check(change);
        change.applyTo(builder);
      }
    }
    StagedShape before = StagedShape.staged(start, buildId).orElseGet(() -> StagedShape.of(start));
    StagedShape after = before.followedBy(start, base, metadata);
    String key = StagedShape.key(buildId);
    if (after.isNoChangeTo(start)) {
      if (start.properties().containsKey(key)) {
        builder.removeProperties(java.util.Set.of(key));
      }
    } else if (!Objects.equals(start.properties().get(key), after.encode())) {
      builder.setProperties(java.util.Map.of(key, after.encode()));
    }
    table.commit(start, builder.build());
  }

  private static boolean isShapeChange(MetadataUpdate change) {
    return change instanceof MetadataUpdate.AddSchema || change instanceof MetadataUpdate.SetCurrentSchema
        || change instanceof MetadataUpdate.AddPartitionSpec || change instanceof MetadataUpdate.SetDefaultPartitionSpec
        || change instanceof MetadataUpdate.AddSortOrder || change instanceof MetadataUpdate.SetDefaultSortOrder
        || change instanceof MetadataUpdate.SetProperties || change instanceof MetadataUpdate.RemoveProperties;
  }

  /** Refuses what would reach readers before the publish, or could not be undone. */
  private void check(MetadataUpdate change) {
    String refused = null;
    if (change instanceof MetadataUpdate.SetSnapshotRef ref && !ref.name().equals(branch)) {
      refused = SnapshotRef.MAIN_BRANCH.equals(ref.name())
          ? "a commit to main (every write of a running transform goes to its staging branch " + branch + ")"
          : "setting branch or tag '" + ref.name() + "'";
    } else if (change instanceof MetadataUpdate.RemoveSnapshotRef ref) {
      refused = "removing branch or tag '" + ref.name() + "'";
    } else if (change instanceof MetadataUpdate.SetLocation) {
      refused = "a location change";
    } else if (change instanceof MetadataUpdate.UpgradeFormatVersion) {
      refused = "a format version upgrade";
    } else if (change instanceof MetadataUpdate.RemoveSchemas || change instanceof MetadataUpdate.RemovePartitionSpecs) {
      refused = "removing schemas or partition specs";
    }
    if (refused != null) {
      throw new TransformsException("Output " + output + " refuses " + refused + " while the transform that "
          + "writes it runs: it would reach readers before the build publishes, and could not be undone if the "
          + "build failed. Do it outside the build (maintenance commands, or your own job on the table).");
    }
  }

  @Override
  public FileIO io() {
    return table.io();
  }

  @Override
  public EncryptionManager encryption() {
    return table.encryption();
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return table.metadataFileLocation(fileName);
  }

  @Override
  public LocationProvider locationProvider() {
    TableMetadata metadata = current();
    return LocationProviders.locationsFor(metadata.location(), metadata.properties());
  }

  @Override
  public long newSnapshotId() {
    return table.newSnapshotId();
  }

  @Override
  public boolean requireStrictCleanup() {
    return table.requireStrictCleanup();
  }
}
