package dev.transforms.runtime.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.TransformsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.OutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A catalog whose warehouse is on an object store is tried with one file before anything is written: a bucket
 * that did not exist failed only inside the first transform, after its inputs were read, naming no key.
 */
class WarehouseWriteCheckTest {

  @TempDir Path dir;

  /** Records every file written and deleted, in the in-memory store. */
  public static final class RecordingFileIO extends InMemoryFileIO {
    static final List<String> WRITTEN = new ArrayList<>();
    static final List<String> DELETED = new ArrayList<>();

    @Override
    public OutputFile newOutputFile(String path) {
      WRITTEN.add(path);
      return super.newOutputFile(path);
    }

    @Override
    public void deleteFile(String path) {
      DELETED.add(path);
      super.deleteFile(path);
    }
  }

  /** An object store without the bucket. */
  public static final class NoBucketFileIO extends InMemoryFileIO {
    @Override
    public OutputFile newOutputFile(String path) {
      throw new IllegalStateException("NoSuchBucketException: The specified bucket does not exist (Status Code: 404)");
    }
  }

  private Catalogs catalogs(String warehouse, Class<?> io) throws Exception {
    Path file = dir.resolve("transforms.properties");
    Files.writeString(file, String.join("\n", "catalog.lake.type=jdbc",
        "catalog.lake.uri=jdbc:sqlite:" + dir.resolve("lake.db"), "catalog.lake.warehouse=" + warehouse,
        "catalog.lake.io-impl=" + io.getName(), "catalog.lake.s3.endpoint=http://127.0.0.1:9000",
        "catalog.lake.s3.secret-access-key=secret-4711", "mount./=lake"));
    return new Catalogs(TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir));
  }

  @Test
  void aFileIsWrittenUnderTheWarehouseAndDeletedAgain() throws Exception {
    try (Catalogs catalogs = catalogs("s3://bucket/wh", RecordingFileIO.class)) {
      catalogs.checkWarehouseWritable("lake");
    }
    assertThat(RecordingFileIO.WRITTEN).singleElement().asString().startsWith("s3://bucket/wh/"
        + WarehouseWriteCheck.PREFIX);
    assertThat(RecordingFileIO.DELETED).isEqualTo(RecordingFileIO.WRITTEN);
    assertThat(new InMemoryFileIO().fileExists(RecordingFileIO.WRITTEN.get(0))).isFalse();
  }

  @Test
  void aBucketThatCannotBeWrittenIsNamedWithTheCatalogsKeysBeforeAnythingIsWritten() throws Exception {
    try (Catalogs catalogs = catalogs("s3://no-such-bucket/wh", NoBucketFileIO.class)) {
      assertThatThrownBy(() -> catalogs.checkWarehouseWritable("lake"))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageStartingWith("Catalog 'lake' keeps its tables under s3://no-such-bucket/wh (catalog.lake.warehouse, "
              + "s3.endpoint http://127.0.0.1:9000), but a file cannot be written there: ")
          .hasMessageContaining("The specified bucket does not exist")
          .hasMessageEndingWith("; check the bucket, the endpoint and the credentials; nothing was written");
      assertThat(Files.exists(dir.resolve("lake.db"))).as("the catalog was not started").isFalse();
    }
  }

  @Test
  void localAndRestWarehousesAreLeftToTheirOwnChecks() throws Exception {
    try (Catalogs catalogs = catalogs(dir.resolve("wh").toUri().toString(), NoBucketFileIO.class)) {
      catalogs.checkWarehouseWritable("lake");
    }
    WarehouseWriteCheck.check("rest", Map.of("type", "rest", "warehouse", "s3://no-such-bucket/wh",
        "io-impl", NoBucketFileIO.class.getName()), new org.apache.hadoop.conf.Configuration(), null);
    // Without io-impl the catalog picks its own file IO (S3's for Glue): nothing to try that would be the same.
    WarehouseWriteCheck.check("glue", Map.of("catalog-impl", "org.apache.iceberg.aws.glue.GlueCatalog",
        "warehouse", "s3://bucket/wh"), new org.apache.hadoop.conf.Configuration(), null);
  }
}
