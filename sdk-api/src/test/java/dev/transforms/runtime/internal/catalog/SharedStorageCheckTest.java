package dev.transforms.runtime.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.TransformsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedStorageCheckTest {

  @TempDir Path dir;

  private TransformsConfig config(String... lines) throws Exception {
    Path file = dir.resolve("transforms.properties");
    Files.writeString(file, String.join("\n", lines));
    return TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir);
  }

  @Test
  void theEmbeddedCatalogOnAClusterIsNamedWithItsPaths() throws Exception {
    TransformsConfig config = TransformsConfig.embedded(dir.resolve("wh"));

    List<String> warnings = SharedStorageCheck.warnings(config, Optional.of("spark://10.0.0.1:7077"));

    assertThat(warnings).singleElement().asString()
        .contains("catalog 'local'")
        .contains("SQLite database " + dir.resolve("wh/catalog.db"))
        .contains("warehouse file:")
        .contains("spark.master is spark://10.0.0.1:7077")
        .contains("every node of the cluster sees the same path")
        .contains("docs/cluster.md");
  }

  @Test
  void localMastersAndNoMasterNeedNoSharedStorage() {
    TransformsConfig config = TransformsConfig.embedded(dir.resolve("wh"));

    assertThat(SharedStorageCheck.warnings(config, Optional.of("local[*]"))).isEmpty();
    assertThat(SharedStorageCheck.warnings(config, Optional.of("local"))).isEmpty();
    assertThat(SharedStorageCheck.warnings(config, Optional.empty())).isEmpty();
  }

  @Test
  void aRestCatalogOnObjectStorageIsShared() throws Exception {
    TransformsConfig config = config(
        "catalog.lake.type=rest",
        "catalog.lake.uri=https://catalog.example.com/api",
        "catalog.lake.warehouse=analytics",
        "mount./=lake");

    assertThat(SharedStorageCheck.warnings(config, Optional.of("yarn"))).isEmpty();
  }

  @Test
  void onlyMountedCatalogsAreChecked() throws Exception {
    TransformsConfig config = config(
        "catalog.lake.type=hadoop",
        "catalog.lake.warehouse=/data/warehouse",
        "catalog.objects.type=hadoop",
        "catalog.objects.warehouse=s3://bucket/warehouse",
        "mount./Raw=lake",
        "mount./=objects");

    assertThat(SharedStorageCheck.warnings(config, Optional.of("k8s://https://10.0.0.1:6443")))
        .singleElement().asString()
        .contains("catalog 'lake' keeps its warehouse /data/warehouse");
  }

  @Test
  void theMasterComesFromTheConfigurationBeforeTheSystemProperty() throws Exception {
    TransformsConfig config = config("spark.master=spark://127.0.0.1:7077");

    assertThat(SharedStorageCheck.sparkMaster(config)).contains("spark://127.0.0.1:7077");
    assertThat(SharedStorageCheck.isCluster("spark://127.0.0.1:7077")).isTrue();
    assertThat(SharedStorageCheck.isCluster("local[4]")).isFalse();
  }
}
