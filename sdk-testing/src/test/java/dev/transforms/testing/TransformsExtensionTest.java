package dev.transforms.testing;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

public class TransformsExtensionTest {

  static final Schema IDS = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  /** Copies ids on a single node. */
  public static class CopyIds {
    @Transform
    public void copy(@TableInput("/kit/in") IcebergInput in, @TableOutput("/kit/out") IcebergOutput out) {
      out.writeTable(in.arrow());
    }
  }

  /** A per-class warehouse keeps tables from test to test. */
  @TransformsTest
  static class PerClass {
    static final List<Path> seen = new ArrayList<>();
    TestWarehouse warehouse;

    @Test
    void first() {
      seen.add(warehouse.location());
      warehouse.createTable("/kit/in", IDS, Row.of(1), Row.of(2));
      warehouse.build(CopyIds.class).assertSucceeded();
      assertThatTable(warehouse.table("/kit/out")).containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));
    }

    @Test
    void second(TestWarehouse parameter) {
      seen.add(parameter.location());
      assertThat(parameter).isSameAs(warehouse);
    }
  }

  /** A per-test warehouse starts empty each time. */
  @TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
  static class PerTest {
    static final List<Path> seen = new ArrayList<>();
    TestWarehouse warehouse;

    @Test
    void one() {
      seen.add(warehouse.location());
      assertThat(warehouse.exists("/kit/in")).isFalse();
      warehouse.createTable("/kit/in", IDS, Row.of(1));
    }

    @Test
    void two() {
      seen.add(warehouse.location());
      assertThat(warehouse.exists("/kit/in")).isFalse();
      warehouse.createTable("/kit/in", IDS, Row.of(1));
    }
  }

  /** Misuse: a final field. */
  @TransformsTest
  static class FinalField {
    final TestWarehouse warehouse = null;

    @Test
    void test() {}
  }

  /** Misuse: a static field with a per-test warehouse. */
  @TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
  static class StaticPerTest {
    static TestWarehouse warehouse;

    @Test
    void test() {}
  }

  /** A failing build reports the transform's error. */
  @TransformsTest
  static class FailingBuild {
    TestWarehouse warehouse;

    @Test
    void test() {
      warehouse.build(CopyIds.class).assertSucceeded();
    }
  }

  private static Events run(Class<?> type) {
    return EngineTestKit.engine("junit-jupiter").selectors(selectClass(type)).execute().testEvents();
  }

  @Test
  void aPerClassWarehouseIsSharedByTheClassAndDeletedAfterIt() {
    PerClass.seen.clear();
    run(PerClass.class).assertStatistics(s -> s.succeeded(2).failed(0));
    assertThat(PerClass.seen).hasSize(2).containsOnly(PerClass.seen.get(0));
    assertThat(Files.exists(PerClass.seen.get(0))).isFalse();
  }

  @Test
  void aPerTestWarehouseIsNewForEachTest() {
    PerTest.seen.clear();
    run(PerTest.class).assertStatistics(s -> s.succeeded(2).failed(0));
    assertThat(PerTest.seen).hasSize(2).doesNotHaveDuplicates();
  }

  @Test
  void misuseNamesTheFieldAndTheFix() {
    assertThat(failureMessage(FinalField.class))
        .isEqualTo("Field warehouse of FinalField is final, but @TransformsTest fills TestWarehouse fields; remove final");
    assertThat(failureMessage(StaticPerTest.class))
        .isEqualTo("Field warehouse of StaticPerTest is static, but @TransformsTest(warehouse = PER_TEST) gives each "
            + "test its own warehouse; make it an instance field");
  }

  @Test
  void aFailedBuildShowsTheReportAndTheCause() {
    String message = failureMessage(FailingBuild.class);
    assertThat(message).startsWith("Expected the build to succeed, but:\nBuild ")
        .contains("FAILED    CopyIds.copy", "Input /kit/in of transform CopyIds.copy does not exist");
  }

  /** The message of the first failure of a test class run on its own. */
  static String failureMessage(Class<?> type) {
    List<String> messages = new ArrayList<>();
    EngineTestKit.engine("junit-jupiter").selectors(selectClass(type)).execute().allEvents().failed()
        .stream().forEach(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class)
            .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable)
            .ifPresent(t -> messages.add(t.getMessage())));
    assertThat(messages).isNotEmpty();
    return messages.get(0);
  }

}
