package dev.transforms.runtime.internal.catalog;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.Locations;
import dev.transforms.runtime.secrets.SecretMasker;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * Before a build or a load writes to a catalog whose warehouse is on an object store, one small file is
 * written under the warehouse and deleted again, through the file IO the catalog's tables use. A bucket that
 * does not exist, an endpoint that cannot be reached or credentials that may not write fail there, with the
 * catalog and its keys named, instead of inside the first transform that writes, after its inputs were read,
 * with the object store's words alone. Local warehouses have checks of their own ({@link Catalogs#checkWritable});
 * a REST catalog's server decides where tables go, so its warehouse key names no location to try. Only a
 * catalog that names its file IO ({@code io-impl}) is tried: without it each catalog picks its own (Hadoop's
 * for JDBC, S3's for Glue), and trying another would refuse a configuration that works.
 */
final class WarehouseWriteCheck {

  /** The name of the file written and deleted, below the warehouse; a random suffix keeps two builds apart. */
  static final String PREFIX = ".transforms-write-check-";

  private WarehouseWriteCheck() {}

  /**
   * Writes and deletes one file under a catalog's object-store warehouse.
   *
   * @param name the catalog's name
   * @param props its properties
   * @param hadoop the Hadoop configuration of the catalogs' file IO
   * @param masker hides secrets in the message
   * @throws ConfigurationException if the file cannot be written or deleted, naming the catalog, its
   *     warehouse and its endpoint
   */
  static void check(String name, Map<String, String> props, Configuration hadoop, SecretMasker masker) {
    String warehouse = props.get(CatalogProperties.WAREHOUSE_LOCATION);
    String type = String.valueOf(props.get("type")).strip().toLowerCase(Locale.ROOT);
    String impl = props.get(CatalogProperties.FILE_IO_IMPL);
    if (warehouse == null || impl == null || type.equals("rest") || !warehouse.contains("://")
        || Locations.localPath(warehouse).isPresent()) {
      return;
    }
    String probe = Locations.folder(warehouse) + PREFIX + UUID.randomUUID();
    try (FileIO io = CatalogUtil.loadFileIO(impl, props, hadoop)) {
      try (PositionOutputStream out = io.newOutputFile(probe).create()) {
        out.write('\n');
      }
      io.deleteFile(probe);
    } catch (IOException | RuntimeException e) {
      String endpoint = props.entrySet().stream().filter(p -> p.getKey().endsWith(".endpoint"))
          .map(p -> ", " + p.getKey() + " " + p.getValue()).findFirst().orElse("");
      throw new ConfigurationException(masker.mask("Catalog '" + name + "' keeps its tables under " + warehouse
          + " (catalog." + name + ".warehouse" + endpoint + "), but a file cannot be written there: " + e
          + "; check the bucket, the endpoint and the credentials; nothing was written"), e);
    }
  }
}
