package dev.transforms.singlenode.edits;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The local file system without explicit permission changes, for tests. Without Hadoop's native
 * library, {@link RawLocalFileSystem} runs a {@code chmod} process for every file and folder it
 * creates, which made the oracle test spend most of its time forking. Files keep the process's
 * default permissions instead. Being "raw", it also writes no {@code .crc} side files.
 */
public class NoChmodLocalFileSystem extends RawLocalFileSystem {
  @Override
  public void setPermission(Path path, FsPermission permission) {
    // keep the default permissions; see the class comment
  }
}
