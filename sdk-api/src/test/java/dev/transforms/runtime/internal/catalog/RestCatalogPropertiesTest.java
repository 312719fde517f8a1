package dev.transforms.runtime.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.TransformsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The properties a REST catalog on object storage needs, as docs/cluster.md writes them. */
class RestCatalogPropertiesTest {

  @TempDir Path dir;

  private static final Map<String, String> ENVIRONMENT = Map.of(
      "LAKE_CLIENT_ID", "pipeline",
      "LAKE_CLIENT_SECRET", "client-secret-4711",
      "AWS_ACCESS_KEY_ID", "AKIAEXAMPLE4711",
      "AWS_SECRET_ACCESS_KEY", "aws-secret-4711",
      "LAKE_TOKEN", "bearer-token-4711");

  private TransformsConfig config() throws Exception {
    Path file = dir.resolve("transforms.properties");
    Files.writeString(file, String.join("\n",
        "catalog.lake.type=rest",
        "catalog.lake.uri=https://catalog.example.com/api/catalog",
        "catalog.lake.warehouse=analytics",
        "catalog.lake.rest.auth.type=oauth2",
        "catalog.lake.credential=${LAKE_CLIENT_ID}:${LAKE_CLIENT_SECRET}",
        "catalog.lake.scope=PRINCIPAL_ROLE:ALL",
        "catalog.lake.header.X-Tenant=analytics",
        "catalog.lake.header.Authorization=Bearer ${LAKE_TOKEN}",
        "catalog.lake.io-impl=org.apache.iceberg.aws.s3.S3FileIO",
        "catalog.lake.s3.endpoint=https://s3.example.com",
        "catalog.lake.s3.path-style-access=true",
        "catalog.lake.s3.access-key-id=${AWS_ACCESS_KEY_ID}",
        "catalog.lake.s3.secret-access-key=${AWS_SECRET_ACCESS_KEY}",
        "catalog.lake.client.region=eu-west-1",
        "mount./=lake"));
    return TransformsConfig.load(Optional.of(file), Optional.empty(), ENVIRONMENT, dir);
  }

  @Test
  void everyPropertyReachesTheCatalogWithSecretsFromTheEnvironment() throws Exception {
    Map<String, String> lake = config().catalogs().get("lake");

    assertThat(lake)
        .containsEntry("type", "rest")
        .containsEntry("uri", "https://catalog.example.com/api/catalog")
        .containsEntry("warehouse", "analytics")
        .containsEntry("credential", "pipeline:client-secret-4711")
        .containsEntry("header.X-Tenant", "analytics")
        .containsEntry("header.Authorization", "Bearer bearer-token-4711")
        .containsEntry("io-impl", "org.apache.iceberg.aws.s3.S3FileIO")
        .containsEntry("s3.endpoint", "https://s3.example.com")
        .containsEntry("s3.path-style-access", "true")
        .containsEntry("s3.access-key-id", "AKIAEXAMPLE4711")
        .containsEntry("s3.secret-access-key", "aws-secret-4711")
        .containsEntry("client.region", "eu-west-1");
  }

  @Test
  void noSecretIsPrintedInTheDescriptionOrInAnError() throws Exception {
    TransformsConfig config = config();

    String described = config.describe();
    String error = config.masker().mask("403 for client pipeline:client-secret-4711 with key AKIAEXAMPLE4711, "
        + "secret aws-secret-4711 and Authorization: Bearer bearer-token-4711");

    for (String secret : new String[] {"client-secret-4711", "AKIAEXAMPLE4711", "aws-secret-4711", "bearer-token-4711"}) {
      assertThat(described).doesNotContain(secret);
      assertThat(error).doesNotContain(secret);
    }
    assertThat(described)
        .contains("catalog.lake.header.Authorization = ****")
        .contains("catalog.lake.s3.secret-access-key = ****")
        .contains("catalog.lake.header.X-Tenant = analytics");
  }
}
