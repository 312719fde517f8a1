package dev.transforms.runtime.internal.catalog;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system for warehouses on local disk, minus two costs Iceberg does not need.
 *
 * <p>Without Hadoop's native library (the usual case outside a Hadoop install), the local file system
 * starts a {@code chmod} process for every file and folder it creates: a fork per data, manifest and
 * metadata file, which dominated the time of small commits. This file system leaves files with the
 * process's default permissions instead. It also writes no {@code .crc} side files: Iceberg records
 * every file's size and Parquet checks its own pages.
 *
 * <p>Registered for the {@code file} scheme in the Hadoop configuration of {@link Catalogs}.
 */
public class LocalWarehouseFileSystem extends LocalFileSystem {

  /** Creates the file system; Hadoop calls this. */
  public LocalWarehouseFileSystem() {
    super(new NoChmod());
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setWriteChecksum(false);
    setVerifyChecksum(false);
  }

  /** The raw local file system that keeps default permissions. */
  static final class NoChmod extends RawLocalFileSystem {
    @Override
    public void setPermission(Path path, FsPermission permission) {
      // Default permissions; see the class comment.
    }
  }
}
