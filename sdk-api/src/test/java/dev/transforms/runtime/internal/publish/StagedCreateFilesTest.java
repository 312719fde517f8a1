package dev.transforms.runtime.internal.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.internal.catalog.KeyPrefixFileIO;
import dev.transforms.runtime.Locations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a build's cleanup of a table it did not publish deletes: that table's files only. */
class StagedCreateFilesTest {
  @TempDir Path dir;

  @Test
  void onAnObjectStoreTheCleanupOfATableLeavesTheFilesOfATableWhoseLocationExtendsItsOwn() throws Exception {
    // one build created /out/a_archive (published) and /out/a (failed): both tables' files carry its prefix, and
    // an object store lists .../out/a_archive/... under the key prefix .../out/a
    KeyPrefixFileIO io = new KeyPrefixFileIO();
    io.setConf(new Configuration());
    String build = "b0001";
    Path unpublished = Files.createDirectories(dir.resolve("out/a/data"))
        .resolve(StagedCreateFiles.prefix(build) + "00000.parquet");
    Path published = Files.createDirectories(dir.resolve("out/a_archive/data"))
        .resolve(StagedCreateFiles.prefix(build) + "00000.parquet");
    Files.writeString(unpublished, "x");
    Files.writeString(published, "x");
    TableMetadata failed = TableMetadata.newTableMetadata(
        new Schema(Types.NestedField.required(1, "id", Types.LongType.get())), PartitionSpec.unpartitioned(),
        Locations.of(dir.resolve("out/a")), Map.of());

    StagedCreateFiles.deleteAll(io, failed, build);

    assertThat(unpublished).doesNotExist();
    assertThat(published).as("a file of /out/a_archive").exists();
  }
}
