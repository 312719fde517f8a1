package dev.transforms.runtime.internal.publish;

import dev.transforms.runtime.spi.CrashPoints;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;

/**
 * Commits new metadata for several tables of one Iceberg JDBC catalog (the embedded catalog) in one
 * database transaction: all of the tables move, or none does. Iceberg's {@code JdbcCatalog} commits one
 * table at a time; this writes each table's new metadata file the way its table operations would, then
 * swaps every table's row of the catalog in one transaction, each only if it still points at the
 * metadata the change was made from.
 *
 * <p>It relies on the JDBC catalog's schema as Iceberg 1.12 keeps it, not on an Iceberg API: the table
 * {@code iceberg_tables} with one row per table ({@code catalog_name}, {@code table_namespace} as the
 * namespace's levels joined by dots, {@code table_name}), whose {@code metadata_location} and
 * {@code previous_metadata_location} a commit sets; in schema V1 the column {@code iceberg_type}
 * ({@code TABLE}, {@code VIEW}, or null for rows older than V1) tells tables from views. Metadata files
 * are named {@code 00042-<uuid>.metadata.json} (with the table's metadata compression), the version one
 * past the current file's. {@code PromoteInOneCommitTest} checks all of this against Iceberg's own
 * {@code JdbcCatalog}: a table committed here loads, commits and lists there as before.
 *
 * <p>The connection is the catalog's ({@code uri} and the {@code jdbc.} properties, so SQLite's busy
 * timeout too), opened for one commit and closed after it.
 */
final class JdbcMultiTableCommit {

  /** Where the kill tests stop a promote: every row swapped, the transaction not yet committed. */
  static final String ROWS_SWAPPED = "promote.rows";

  private static final String SWAP = "UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location = ?"
      + " WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ?";
  private static final String TABLES_ONLY = " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)";

  private final String catalogName;
  private final Map<String, String> properties;

  /**
   * A commit through one JDBC catalog.
   *
   * @param catalogName the catalog's name, as its rows are keyed ({@code JdbcCatalog.name()})
   * @param properties the catalog's properties: {@code uri} and the {@code jdbc.} ones
   */
  JdbcMultiTableCommit(String catalogName, Map<String, String> properties) {
    this.catalogName = catalogName;
    this.properties = properties;
  }

  /**
   * One table's change: from {@code base}, the metadata its catalog row points at, to {@code updated}.
   *
   * @param identifier the table in the catalog
   * @param operations the table's operations (its file IO and metadata folder)
   * @param base the metadata the change was made from
   * @param updated the new metadata
   */
  record Change(TableIdentifier identifier, TableOperations operations, TableMetadata base, TableMetadata updated) {}

  /**
   * Commits every change in one database transaction. When a table's row no longer points at its base
   * (another writer committed it meanwhile), the transaction is rolled back, the metadata files written
   * for it are deleted and no table has changed.
   *
   * @param changes the changes, at most one per table
   * @throws CommitFailedException naming the tables another writer changed; nothing was committed
   * @throws CommitStateUnknownException if the database failed while committing; the metadata files are
   *     kept, since the catalog may point at them
   */
  void commit(List<Change> changes) {
    List<String> written = new ArrayList<>();
    boolean committing = false;
    try {
      List<String> locations = new ArrayList<>();
      for (Change change : changes) {
        String location = newMetadataFile(change);
        written.add(location);
        locations.add(location);
      }
      try (Connection connection = connect()) {
        connection.setAutoCommit(false);
        List<String> stale = swap(connection, changes, locations);
        if (!stale.isEmpty()) {
          connection.rollback();
          throw new CommitFailedException("Cannot commit %s: another writer changed %s meanwhile; nothing was committed",
              changes.size() == 1 ? "the table" : "the " + changes.size() + " tables together", String.join(", ", stale));
        }
        CrashPoints.reached(ROWS_SWAPPED);
        committing = true;
        connection.commit();
      }
    } catch (SQLException e) {
      if (committing) {
        throw new CommitStateUnknownException(e);
      }
      deleteQuietly(changes, written);
      throw new CommitFailedException(e, "Cannot commit %s tables in one transaction of catalog %s: %s",
          changes.size(), catalogName, e.getMessage());
    } catch (RuntimeException e) {
      deleteQuietly(changes, written);
      throw e;
    }
    changes.forEach(c -> CatalogUtil.deleteRemovedMetadataFiles(c.operations().io(), c.base(), c.updated()));
  }

  /** Swaps every table's row; the tables whose row did not point at their base any more. */
  private List<String> swap(Connection connection, List<Change> changes, List<String> locations) throws SQLException {
    List<String> stale = new ArrayList<>();
    try (PreparedStatement update = connection.prepareStatement(SWAP + (knowsViews(connection) ? TABLES_ONLY : ""))) {
      for (int i = 0; i < changes.size(); i++) {
        Change change = changes.get(i);
        update.setString(1, locations.get(i));
        update.setString(2, change.base().metadataFileLocation());
        update.setString(3, catalogName);
        update.setString(4, String.join(".", change.identifier().namespace().levels()));
        update.setString(5, change.identifier().name());
        update.setString(6, change.base().metadataFileLocation());
        if (update.executeUpdate() != 1) {
          stale.add(change.identifier().toString());
        }
      }
    }
    return stale;
  }

  /** Whether the catalog's rows have schema V1's column that tells tables from views. */
  private static boolean knowsViews(Connection connection) throws SQLException {
    try (ResultSet column = connection.getMetaData().getColumns(null, null, "iceberg_tables", "iceberg_type")) {
      return column.next();
    }
  }

  /** Writes the change's metadata file, named as the table's operations would name it; its location. */
  private static String newMetadataFile(Change change) {
    String codec = change.updated().property(TableProperties.METADATA_COMPRESSION,
        TableProperties.METADATA_COMPRESSION_DEFAULT);
    String name = String.format("%05d-%s%s", version(change.base().metadataFileLocation()) + 1, UUID.randomUUID(),
        TableMetadataParser.getFileExtension(TableMetadataParser.Codec.fromName(codec)));
    String location = change.operations().metadataFileLocation(name);
    TableMetadataParser.overwrite(change.updated(), change.operations().io().newOutputFile(location));
    return location;
  }

  /** The version a metadata file's name starts with ({@code 00041-...}), or -1 when it has none. */
  static int version(String location) {
    String file = location.substring(location.lastIndexOf('/') + 1);
    int dash = file.indexOf('-');
    try {
      return dash < 0 ? -1 : Integer.parseInt(file.substring(0, dash));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private Connection connect() throws SQLException {
    Properties driver = new Properties();
    properties.forEach((key, value) -> {
      if (key.startsWith("jdbc.")) {
        driver.setProperty(key.substring("jdbc.".length()), value);
      }
    });
    return DriverManager.getConnection(properties.get("uri"), driver);
  }

  private static void deleteQuietly(List<Change> changes, List<String> written) {
    for (int i = 0; i < written.size(); i++) {
      try {
        changes.get(i).operations().io().deleteFile(written.get(i));
      } catch (RuntimeException e) {
        // An orphan metadata file that no catalog row points at: maintain removes it.
      }
    }
  }
}
