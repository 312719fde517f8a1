package dev.transforms.testing;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;

/** {@code @TransformsTest(config = ...)}: any catalogs, still owned and cleaned up by the extension. */
public class ConfiguredWarehouseTest {

  static final Schema IDS = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  /** From the Hadoop catalog to the JDBC one, on a single node. */
  public static class LakeToOps {
    @Transform
    public void copy(@TableInput("/Lake/raw/ids") IcebergInput in, @TableOutput("/Ops/daily/ids") IcebergOutput out) {
      out.writeTable(in.arrow());
    }
  }

  /** And back, on Spark. */
  public static class OpsToLake {
    @Transform
    public void copy(@TableInput("/Ops/daily/ids") TableTransformInput in,
                     @TableOutput("/Lake/clean/ids") TableTransformOutput out) {
      out.writeDataFrame(in.dataframe());
    }
  }

  /** Two catalogs mounted at two prefixes; the name falls back to its default. */
  @TransformsTest(config = "${KIT_TEST_CONFIG_NEVER_SET:-two-catalogs.properties}")
  static class TwoCatalogs {
    static final List<Path> seen = new ArrayList<>();
    TestWarehouse warehouse;

    @Test
    void buildsAcrossCatalogsInsideTheTemporaryFolder() {
      seen.add(warehouse.location());
      assertThat(warehouse.resolve("/Lake/raw/ids").catalog()).isEqualTo("lake");
      assertThat(warehouse.resolve("/Ops/daily/ids").namespace()).containsExactly("reporting", "daily");
      warehouse.createTable("/Lake/raw/ids", IDS, Row.of(1), Row.of(2));
      warehouse.build(LakeToOps.class, OpsToLake.class).assertSucceeded();
      assertThatTable(warehouse.table("/Ops/daily/ids")).containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));
      assertThatTable(warehouse.table("/Lake/clean/ids")).containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));
      assertThat(warehouse.table("/Lake/clean/ids").location()).contains(warehouse.location().resolve("lake").toString());
      assertThat(warehouse.table("/Ops/daily/ids").location()).contains(warehouse.location().resolve("ops").toString());
    }
  }

  /** A variable without a default that is not set. */
  @TransformsTest(config = "${KIT_TEST_CONFIG_NEVER_SET}")
  static class UnsetVariable {
    TestWarehouse warehouse;

    @Test
    void test() {}
  }

  /** A name that is neither a resource nor a file. */
  @TransformsTest(config = "no-such-config.properties")
  static class MissingConfiguration {
    TestWarehouse warehouse;

    @Test
    void test() {}
  }

  @TempDir Path dir;

  @Test
  void aConfiguredWarehouseUsesItsCatalogsAndLeavesNothingRunning() {
    TwoCatalogs.seen.clear();
    EngineTestKit.engine("junit-jupiter").selectors(selectClass(TwoCatalogs.class)).execute().testEvents()
        .assertStatistics(s -> s.succeeded(1).failed(0));
    assertThat(TwoCatalogs.seen).hasSize(1);
    assertThat(Files.exists(TwoCatalogs.seen.get(0).getParent())).as("the temporary folder is deleted").isFalse();
    // The session the run started for its Spark build is stopped with the run.
    assertThat(SparkSession.getDefaultSession().isEmpty()
        || SparkSession.getDefaultSession().get().sparkContext().isStopped()).isTrue();
  }

  @Test
  void aConfigurationThatCannotBeFoundNamesTheAnnotationAndTheFix() {
    assertThat(TransformsExtensionTest.failureMessage(UnsetVariable.class)).isEqualTo("@TransformsTest(config = \"${KIT_TEST_CONFIG_NEVER_SET}\") on "
        + "UnsetVariable references ${KIT_TEST_CONFIG_NEVER_SET}, which is not set; set it, or give a default: "
        + "${KIT_TEST_CONFIG_NEVER_SET:-file.properties}");
    assertThat(TransformsExtensionTest.failureMessage(MissingConfiguration.class)).startsWith("@TransformsTest(config = \"no-such-config.properties\") "
        + "on MissingConfiguration names 'no-such-config.properties', which is neither a resource on the test "
        + "classpath (put it in src/test/resources) nor a file");
  }

  @Test
  void aConfiguredWarehouseDropsWhatItCreatedInCatalogsOutsideItsFolder() throws Exception {
    Path shared = dir.resolve("shared");
    Files.createDirectories(shared);
    Path file = dir.resolve("shared.properties");
    Files.writeString(file, String.join("\n",
        "catalog.shared.type=jdbc",
        "catalog.shared.uri=jdbc:sqlite:" + shared.resolve("catalog.db"),
        "catalog.shared.warehouse=" + shared.toUri(),
        "catalog.shared.jdbc.schema-version=V1",
        "mount./=shared"));
    TransformsConfig config = TransformsConfig.load(Optional.of(file), Optional.of(dir.resolve("wh")), Map.of(), dir);
    try (TestWarehouse warehouse = TestWarehouse.owning(config)) {
      warehouse.createTable("/kit/in", IDS, Row.of(1));
      warehouse.build(LakeToKit.class).assertSucceeded();
      assertThat(warehouse.exists("/kit/out")).isTrue();
    }
    try (TestWarehouse after = new TestWarehouse(config)) {
      assertThat(after.exists("/kit/in")).isFalse();
      assertThat(after.exists("/kit/out")).isFalse();
    }
  }

  /** Copies /kit/in to /kit/out on a single node. */
  public static class LakeToKit {
    @Transform
    public void copy(@TableInput("/kit/in") IcebergInput in, @TableOutput("/kit/out") IcebergOutput out) {
      out.writeTable(in.arrow());
    }
  }
}
