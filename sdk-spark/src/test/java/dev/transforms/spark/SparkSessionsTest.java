package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.TransformsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Session settings and schema checks, without starting Spark. */
class SparkSessionsTest {

  @Test
  void localDefaults() {
    Map<String, String> settings = SparkSessions.staticSettings(Map.of());
    if (System.getProperty("spark.master") == null) {
      assertThat(settings).containsEntry("spark.master", "local[*]")
          .containsEntry("spark.driver.host", "127.0.0.1").containsEntry("spark.driver.bindAddress", "127.0.0.1")
          .containsKey("spark.sql.shuffle.partitions");
    }
    assertThat(settings).containsEntry("spark.ui.enabled", "false")
        .containsEntry("spark.sql.extensions", SparkSessions.ICEBERG_EXTENSIONS + "," + SparkSessions.TRANSFORMS_EXTENSIONS);
  }

  @Test
  void aConfiguredClusterMasterKeepsItsOwnNetworkSettings() {
    Map<String, String> settings = SparkSessions.staticSettings(Map.of("spark.master", "spark://10.0.0.5:7077",
        "spark.ui.enabled", "true"));
    assertThat(settings).containsEntry("spark.master", "spark://10.0.0.5:7077").containsEntry("spark.ui.enabled", "true")
        .doesNotContainKeys("spark.driver.host", "spark.driver.bindAddress", "spark.sql.shuffle.partitions");
  }

  @Test
  void sqlSettingsCanBeOverridden() {
    assertThat(SparkSessions.sqlSettings(Map.of())).containsEntry("spark.sql.sources.partitionOverwriteMode", "dynamic")
        .containsEntry("spark.sql.storeAssignmentPolicy", "ANSI").containsEntry("spark.sql.adaptive.enabled", "true");
    assertThat(SparkSessions.sqlSettings(Map.of("spark.sql.adaptive.enabled", "false")))
        .containsEntry("spark.sql.adaptive.enabled", "false");
  }

  @Test
  void everyCatalogIsRegisteredWithoutTableCache(@TempDir Path dir) throws Exception {
    Path file = dir.resolve(TransformsConfig.FILE_NAME);
    Files.writeString(file, "catalog.prod.type=rest\ncatalog.prod.uri=http://127.0.0.1:8181\n"
        + "catalog.cached.type=hadoop\ncatalog.cached.warehouse=file:/tmp/w\ncatalog.cached.cache-enabled=true\n"
        + "mount./=local\n");
    TransformsConfig config = TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir);
    Map<String, String> settings = SparkSessions.catalogSettings(config);
    assertThat(settings).containsEntry("spark.sql.catalog.prod", TransformsSparkCatalog.class.getName())
        .containsEntry("spark.sql.catalog.prod.type", "rest")
        .containsEntry("spark.sql.catalog.prod.uri", "http://127.0.0.1:8181")
        .containsEntry("spark.sql.catalog.prod.cache-enabled", "false")
        .containsEntry("spark.sql.catalog.cached.cache-enabled", "true")
        .containsEntry("spark.sql.catalog.local.type", "jdbc")
        .containsEntry("spark.sql.catalog.local.jdbc.schema-version", "V1");
  }

  @Test
  void schemaCheckAcceptsLosslessWideningAndListsEverythingElse() {
    StructType table = new StructType().add("id", DataTypes.LongType).add("amount", DataTypes.createDecimalType(12, 2))
        .add("ratio", DataTypes.DoubleType).add("name", DataTypes.StringType);
    StructType fits = new StructType().add("NAME", DataTypes.StringType).add("id", DataTypes.IntegerType)
        .add("amount", DataTypes.createDecimalType(10, 2)).add("ratio", DataTypes.FloatType);
    assertThat(SchemaCheck.differences(fits, table, false)).isEmpty();
    assertThat(SchemaCheck.differences(fits, table, true)).singleElement().asString().startsWith("column order");

    StructType wrong = new StructType().add("id", DataTypes.StringType).add("amount", DataTypes.createDecimalType(14, 2))
        .add("ratio", DataTypes.DoubleType).add("extra", DataTypes.BooleanType);
    assertThat(SchemaCheck.differences(wrong, table, false)).isEqualTo(List.of(
        "id: table bigint, data string", "amount: table decimal(12,2), data decimal(14,2)",
        "name: missing from the data (table string)", "extra: not in the table (data boolean)"));
  }

  @Test
  void identifierLiteralsEscapeQuotes() {
    assertThat(TableReads.literal("`local`.`it's`.`a\\b`")).isEqualTo("'`local`.`it\\'s`.`a\\\\b`'");
  }
}
