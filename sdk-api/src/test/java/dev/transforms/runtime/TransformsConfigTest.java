package dev.transforms.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.internal.config.EnvironmentOverrides;
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

  /** Both failed only once a build started the catalog or wrote a file, naming neither key nor catalog. */
  @Test
  void aRestCatalogWithoutUriAndAnEndpointWithoutSchemeAreRefusedNamingTheKey() throws Exception {
    file("catalog.lake.type=rest", "catalog.lake.warehouse=s3://bucket/wh");
    assertThatThrownBy(() -> TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), dir))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("Catalog 'lake' has type rest but no catalog.lake.uri; set it to the REST catalog's address, "
            + "such as http://127.0.0.1:8181");

    file("catalog.lake.type=rest", "catalog.lake.uri=http://127.0.0.1:8181", "catalog.lake.s3.endpoint=127.0.0.1:9000");
    assertThatThrownBy(() -> TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), dir))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("Catalog 'lake': catalog.lake.s3.endpoint is '127.0.0.1:9000' (set by file "
            + dir.resolve("transforms.properties") + "), which is not a URL with its scheme and host; write it as "
            + "http://HOST:PORT or https://HOST:PORT, such as http://127.0.0.1:9000");

    file("catalog.lake.type=rest", "catalog.lake.uri=http://127.0.0.1:8181",
        "catalog.lake.s3.endpoint=http://127.0.0.1:9000");
    assertThat(TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), dir).catalogs().get("lake"))
        .containsEntry("s3.endpoint", "http://127.0.0.1:9000");
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
  void eachConcernsKeysAreReadByItsAccessor() throws Exception {
    file("advisories=error", "advisories.withcolumn-loop.projections=5", "maintain./Shop.older-than=7d",
        "openlineage.namespace=shop", "build.on-schema-change=append_new_columns", "duckdb.threads=2");
    TransformsConfig config = TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), dir);
    assertThat(config.advisoryProperties())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("advisories", "error", "advisories.withcolumn-loop.projections", "5"));
    assertThat(config.maintenanceProperties())
        .containsExactlyInAnyOrderEntriesOf(Map.of("maintain./Shop.older-than", "7d"));
    assertThat(config.lineageProperties()).containsEntry("openlineage.namespace", "shop");
    assertThat(config.onSchemaChange()).isEqualTo(dev.transforms.api.SchemaChangePolicy.APPEND_NEW_COLUMNS);
    assertThat(config.duckdbProperties()).containsExactlyInAnyOrderEntriesOf(Map.of("duckdb.threads", "2"));
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
    assertThat(EnvironmentOverrides.variable("catalog.prod.s3.secret-access-key"))
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
        .hasMessage("Configuration key 'catalog.prod.token' (set by file " + file + ") references ${MISSING_TOKEN}, "
            + "which is not set; export MISSING_TOKEN or give a default as ${MISSING_TOKEN:-value}");
  }

  @Test
  void badConfigurationsAreRejectedWithTheFix() throws Exception {
    assertThatThrownBy(() -> load("catalog.prod.uri=http://127.0.0.1"))
        .hasMessage("Catalog 'prod' has neither catalog.prod.type (jdbc, rest, hadoop, hive) nor catalog.prod.catalog-impl");
    assertThatThrownBy(() -> load("mount./X=nowhere"))
        .hasMessage("Mount '/X' names catalog 'nowhere', which is not defined; define catalog.nowhere.type, or use one of [local]");
    assertThatThrownBy(() -> load("colour=blue"))
        .hasMessageStartingWith("Unknown configuration key 'colour'");
    // Named with the line it is set on.
    assertThatThrownBy(() -> load("# the team's settings", "", "build.threads=2", "colur=blue"))
        .hasMessageStartingWith("Unknown configuration key 'colur' in file " + dir.resolve(TransformsConfig.FILE_NAME)
            .toRealPath() + ", line 4;");
    assertThatThrownBy(() -> load("mount.relative=local"))
        .hasMessageStartingWith("Mount prefix of 'mount.relative' is not a valid path");
    assertThatThrownBy(() -> TransformsConfig.load(Optional.of(Path.of("missing.properties")), Optional.empty(), Map.of(), dir))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("Configuration file " + dir.resolve("missing.properties") + " does not exist");
  }

  @Test
  void environmentVariablesOverrideTheEmbeddedDefaultsToo() {
    TransformsConfig config = TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(
        "TRANSFORMS_CATALOG_LOCAL_JDBC_BUSY_TIMEOUT", "5000",
        "TRANSFORMS_CATALOG_LOCAL_URI", "jdbc:sqlite:${DB_DIR:-/data}/other.db",
        "TRANSFORMS_FILES_ROOT", "shared-files",
        "TRANSFORMS_MOUNT__", "local:team"), dir);
    assertThat(config.catalogs().get("local"))
        .containsEntry("jdbc.busy_timeout", "5000")
        .containsEntry("uri", "jdbc:sqlite:/data/other.db")
        .containsEntry("type", "jdbc");
    assertThat(config.filesRoot()).isEqualTo(dir.resolve("shared-files"));
    assertThat(config.mounts()).containsExactly(new Mount("/", "local", java.util.List.of("team")));
  }

  @Test
  void anUnknownCatalogTypeIsRefusedNamingWhereItWasSet() throws Exception {
    assertThatThrownBy(() -> TransformsConfig.load(Optional.empty(), Optional.empty(),
        Map.of("TRANSFORMS_CATALOG_LOCAL_TYPE", "bogus"), dir))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageStartingWith("Catalog 'local' has type 'bogus' (set by environment variable "
            + "TRANSFORMS_CATALOG_LOCAL_TYPE), which Iceberg does not know; use one of jdbc, rest, hadoop, hive");
    assertThatThrownBy(() -> load("catalog.prod.type=restful", "mount./=prod"))
        .hasMessageContaining("Catalog 'prod' has type 'restful' (set by file " + dir.resolve("transforms.properties"));
    assertThatThrownBy(() -> load("catalog.prod.catalog-impl=com.example.NoSuchCatalog", "mount./=prod"))
        .hasMessageContaining("Catalog 'prod' needs class com.example.NoSuchCatalog (catalog.prod.catalog-impl")
        .hasMessageContaining("not on the classpath");
    assertThatThrownBy(() -> load("catalog.prod.catalog-impl=java.lang.String", "mount./=prod"))
        .hasMessageContaining("class java.lang.String").hasMessageContaining("is not an Iceberg catalog");
    assertThatThrownBy(() -> load("catalog.prod.type=rest", "catalog.prod.catalog-impl=org.apache.iceberg.rest.RESTCatalog"))
        .hasMessageStartingWith("Catalog 'prod' sets both catalog.prod.type").hasMessageContaining("keep one");
    assertThat(load("catalog.prod.type=REST", "catalog.prod.uri=http://127.0.0.1:1", "mount./=prod").catalogs())
        .containsKey("prod");
  }

  @Test
  void anUnterminatedOrInvalidReferenceIsAnErrorNamingTheKey() {
    assertThatThrownBy(() -> load("catalog.prod.type=rest", "catalog.prod.uri=http://${HOST/api"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("Configuration key 'catalog.prod.uri' (set by file " + dir.resolve("transforms.properties")
            + ") has an unterminated reference '${HOST'; close it with '}': ${VAR} or ${VAR:-default}");
    assertThatThrownBy(() -> TransformsConfig.load(Optional.empty(), Optional.empty(),
        Map.of("TRANSFORMS_WAREHOUSE", "/data/${1WH}/x"), dir))
        .hasMessageStartingWith("Configuration key 'warehouse' (set by environment variable TRANSFORMS_WAREHOUSE) "
            + "has an invalid reference starting '${1WH'");
    // The rest of a secret's value is never quoted.
    assertThatThrownBy(() -> load("catalog.prod.type=rest", "catalog.prod.token=abc${TOKEN_PART s3cr3t"))
        .hasMessageContaining("'${TOKEN_PART'").hasMessageNotContaining("s3cr3t");
  }

  @Test
  void aConfigurationFolderAnEmptyWarehouseAndAnEmptyFilesRootAreRefused() throws Exception {
    Files.createDirectories(dir.resolve("conf"));
    assertThatThrownBy(() -> TransformsConfig.load(Optional.of(Path.of("conf")), Optional.empty(), Map.of(), dir))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("Configuration file " + dir.resolve("conf") + " is a folder; name a properties file, such as "
            + dir.resolve("conf/transforms.properties"));
    assertThatThrownBy(() -> TransformsConfig.load(Optional.empty(), Optional.of(Path.of("")), Map.of(), dir))
        .hasMessage("The warehouse folder is empty (set by --warehouse); name a folder, such as ./warehouse");
    assertThatThrownBy(() -> TransformsConfig.load(Optional.empty(), Optional.empty(),
        Map.of("TRANSFORMS_WAREHOUSE", " "), dir))
        .hasMessageContaining("(set by environment variable TRANSFORMS_WAREHOUSE)");
    assertThatThrownBy(() -> load("files.root="))
        .hasMessageStartingWith("Configuration key 'files.root' is empty");
  }

  @Test
  void credentialsWrittenInsideAUriAreSecret() throws Exception {
    TransformsConfig config = load("catalog.pg.type=jdbc", "catalog.pg.uri=jdbc:postgresql://app:db-pass-77@db/cat",
        "catalog.pg.warehouse=file:/tmp/wh", "catalog.api.type=rest",
        "catalog.api.uri=https://catalog.example.com/v1?access_token=tok-1234", "mount./=pg");
    assertThat(config.masker().mask("cannot reach db: db-pass-77; token tok-1234"))
        .isEqualTo("cannot reach db: ****; token ****");
    assertThat(config.describe()).contains("catalog.pg.uri = jdbc:postgresql://app:****@db/cat",
        "catalog.api.uri = https://catalog.example.com/v1?access_token=****");
  }

  private TransformsConfig load(String... lines) throws Exception {
    return TransformsConfig.load(Optional.of(file(lines)), Optional.empty(), Map.of(), dir);
  }
}
