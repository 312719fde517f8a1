package dev.transforms.runtime.internal.catalog;

import java.net.URI;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.relocated.com.google.common.collect.Iterables;

/**
 * Local files listed as an object store lists keys: {@link #listPrefix} returns every file whose path starts
 * with the prefix, whichever folder holds it, as Iceberg's {@code S3FileIO} does (a plain key prefix, no
 * delimiter). So {@code .../orders} lists the files of {@code .../orders_archive} too.
 */
public class KeyPrefixFileIO extends HadoopFileIO {
  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    String path = URI.create(prefix).getPath();
    String folder = path.substring(0, path.lastIndexOf('/') + 1);
    Iterable<FileInfo> underFolder = super.listPrefix(new Path(URI.create(prefix).getScheme(), null, folder).toString());
    return Iterables.filter(underFolder, file -> new Path(file.location()).toUri().getPath().startsWith(path));
  }
}
