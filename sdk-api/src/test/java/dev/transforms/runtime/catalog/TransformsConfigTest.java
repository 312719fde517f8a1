package dev.transforms.runtime.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.ConfigurationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransformsConfigTest {

  @TempDir Path dir;

  private Path file(String... lines) throws Exception {
    Path file = dir.resolve("transforms.properties");
    Files.writeString(file, String.join("\n", lines));
    return file;
  }

  @Test
  void withNoFileTheEmbeddedCatalogIsMountedAtTheRoot() {
    TransformsConfig config = TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), dir);
    assertThat(config.source()).isEmpty();
    assertThat(config.warehouse()).isEqualTo(dir.resolve("warehouse"));
    assertThat(config.catalogs()).containsOnlyKeys("local");
    assertThat(config.catalogs().get("local"))
        .containsEntry("type", "jdbc")
        .containsEntry("uri", "jdbc:sqlite:" + dir.resolve("warehouse/catalog.db"))
        .containsEntry("jdbc.schema-version", "V1")
        .containsEntry("jdbc.journal_mode", "WAL")
        .containsKey("jdbc.busy_timeout")
        .containsKey("table-default.commit.retry.num-retries");
    assertThat(config.mounts()).containsExactly(new Mount("/", "local", java.util.List.of()));
  }

  @Test
  void theFileInTheWorkingDirectoryIsFoundAndTheWarehouseOptionWins() throws Exception {
    file("warehouse=from-file", "spark.master=local[2]");
    TransformsConfig config = TransformsConfig.load(Optional.empty(), Optional.of(Path.of("from-cli")), Map.of(), dir);
    assertThat(config.source()).contains(dir.resolve("transforms.properties"));
    assertThat(config.warehouse()).isEqualTo(dir.resolve("from-cli"));
    assertThat(config.sparkProperties()).containsEntry("spark.master", "local[2]");
  }

  @Test
  void environmentVariablesOverrideKeysAndFillReferences() throws Exception {
    Path file = file(
        "catalog.prod.type=rest",
        "catalog.prod.uri=http://127.0.0.1:8181",
        "catalog.prod.credential=${PROD_CREDENTIAL}",
        "catalog.prod.warehouse=${PROD_WAREHOUSE:-default-wh}",
        "mount./Prod=prod:analytics");
    Map<String, String> env = Map.of(
        "PROD_CREDENTIAL", "client:s3cr3t-value",
        "TRANSFORMS_CATALOG_PROD_URI", "http://127.0.0.1:9999");
    TransformsConfig config = TransformsConfig.load(Optional.of(file), Optional.empty(), env, dir);
    assertThat(config.catalogs().get("prod"))
        .containsEntry("uri", "http://127.0.0.1:9999")
        .containsEntry("credential", "client:s3cr3t-value")
        .containsEntry("warehouse", "default-wh");
    assertThat(TransformsConfig.environmentName("catalog.prod.s3.secret-access-key"))
        .isEqualTo("TRANSFORMS_CATALOG_PROD_S3_SECRET_ACCESS_KEY");
  }

  @Test
  void secretsAreMaskedInDescriptionsAndMessages() throws Exception {
    Path file = file(
        "catalog.prod.type=rest",
        "catalog.prod.uri=http://127.0.0.1:8181",
        "catalog.prod.credential=${PROD_CREDENTIAL}",
        "catalog.prod.s3.secret-access-key=plain-secret-in-file",
        "mount./=prod:ns");
    TransformsConfig config = TransformsConfig.load(Optional.of(file), Optional.empty(),
        Map.of("PROD_CREDENTIAL", "client:s3cr3t-value"), dir);
    String described = config.describe();
    assertThat(described).doesNotContain("s3cr3t-value").doesNotContain("plain-secret-in-file")
        .contains("catalog.prod.credential = ****", "catalog.prod.s3.secret-access-key = ****",
            "catalog.prod.uri = http://127.0.0.1:8181");
    assertThat(config.masker().mask("login failed for client:s3cr3t-value at http://127.0.0.1:8181"))
        .isEqualTo("login failed for **** at http://127.0.0.1:8181");
    assertThat(config.toString()).doesNotContain("s3cr3t-value");
  }

  @Test
  void anUnsetReferenceNamesTheKeyAndTheVariable() throws Exception {
    Path file = file("catalog.prod.type=rest", "catalog.prod.token=${MISSING_TOKEN}");
    assertThatThrownBy(() -> TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("Configuration key 'catalog.prod.token' references ${MISSING_TOKEN}, which is not set; "
            + "export MISSING_TOKEN or give a default as ${MISSING_TOKEN:-value}");
  }

  @Test
  void badConfigurationsAreRejectedWithTheFix() throws Exception {
    assertThatThrownBy(() -> load("catalog.prod.uri=http://127.0.0.1"))
        .hasMessage("Catalog 'prod' has neither catalog.prod.type (jdbc, rest, hadoop, hive) nor catalog.prod.catalog-impl");
    assertThatThrownBy(() -> load("mount./X=nowhere"))
        .hasMessage("Mount '/X' names catalog 'nowhere', which is not defined; define catalog.nowhere.type, or use one of [local]");
    assertThatThrownBy(() -> load("colour=blue"))
        .hasMessageStartingWith("Unknown configuration key 'colour'");
    assertThatThrownBy(() -> load("mount.relative=local"))
        .hasMessageStartingWith("Mount prefix of 'mount.relative' is not a valid path");
    assertThatThrownBy(() -> TransformsConfig.load(Optional.of(Path.of("missing.properties")), Optional.empty(), Map.of(), dir))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("Configuration file " + dir.resolve("missing.properties") + " does not exist");
  }

  private TransformsConfig load(String... lines) throws Exception {
    return TransformsConfig.load(Optional.of(file(lines)), Optional.empty(), Map.of(), dir);
  }
}
