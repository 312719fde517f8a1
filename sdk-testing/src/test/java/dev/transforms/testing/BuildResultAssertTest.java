package dev.transforms.testing;

import static dev.transforms.testing.TransformsAssertions.assertThat;
import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.api.TransformFailedException;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
public class BuildResultAssertTest {

  static final Schema IDS = new Schema(Types.NestedField.optional(1, "id", Types.LongType.get()));

  TestWarehouse warehouse;

  /** Copies its input. */
  public static class Copy {
    @Transform(name = "copy")
    public void copy(@TableInput("/a/in") IcebergInput in, @TableOutput("/a/out") IcebergOutput out) {
      out.writeTable(in.arrow());
    }
  }

  /** Throws. */
  public static class Broken {
    @Transform(name = "copy")
    public void copy(@TableInput("/a/in") IcebergInput in, @TableOutput("/a/out") IcebergOutput out) {
      throw new IllegalStateException("no rows today", new IllegalArgumentException("the input is closed"));
    }
  }

  @Test
  void aSucceededBuildReadsLikeTheReport() {
    warehouse.createTable("/a/in", IDS, Row.of(1), Row.of(2));
    BuildResult result = warehouse.build(Copy.class);
    assertThat(result).succeeded().transform("copy").succeeded().isFull("not an incremental transform").addedRows("/a/out", 2);
    assertThat(result.only()).succeeded();

    assertThatThrownBy(() -> assertThat(result).failed())
        .hasMessageContaining("Expecting the build to fail").hasMessageContaining("SUCCEEDED");
    assertThatThrownBy(() -> assertThat(result).only().addedRows("/a/out", 3))
        .isInstanceOf(AssertionFailedError.class).hasMessageContaining("to add 3 rows to /a/out but it added 2");
    assertThatThrownBy(() -> assertThat(result).only().addedRows("/a/out", 1))
        .hasMessageContaining("Expecting transform copy to add 1 row to /a/out but it added 2");
    assertThatThrownBy(() -> assertThat(result).transform("other"))
        .hasMessageContaining("to have run transform other but it ran [copy]");
  }

  @Test
  void advisoriesAreAssertedByRule() {
    warehouse.createTable("/a/in", IDS, Row.of(1), Row.of(2));
    BuildResult result = warehouse.build(Copy.class);
    assertThat(result).only().earnedNoAdvisory();
    assertThatThrownBy(() -> assertThat(result).only().earnedAdvisory("whole-input-in-memory"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expecting transform copy to earn advisory whole-input-in-memory but it earned []");
  }

  @Test
  void aFailureIsMatchedByTypeAndWordsAnywhereInItsCauses() {
    warehouse.createTable("/a/in", IDS, Row.of(1));
    BuildResult result = warehouse.build(Broken.class);
    assertThat(result).failed().only().failed()
        .failedWith(TransformFailedException.class, "no rows today")
        .failedWith(IllegalArgumentException.class, "input is closed");

    assertThatThrownBy(() -> assertThat(result).only().succeeded())
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("Expecting transform copy to be SUCCEEDED but it was:")
        .hasMessageContaining("caused by: java.lang.IllegalArgumentException: the input is closed");
    assertThatThrownBy(() -> assertThat(result).only().failedWith(UnsupportedOperationException.class))
        .hasMessageContaining("to fail with java.lang.UnsupportedOperationException");
    assertThatThrownBy(() -> assertThat(result).only().failedWith(TransformFailedException.class, "tomorrow"))
        .hasMessageContaining("to say \"tomorrow\"");
  }

  @Test
  void columnAndPropertyMismatchesCarryActualAndExpectedForADiff() {
    warehouse.createTable("/a/in", IDS, Row.of(1));
    AssertionFailedError columns = org.junit.jupiter.api.Assertions.assertThrows(AssertionFailedError.class,
        () -> assertThatTable(warehouse.table("/a/in")).hasColumns("id", "name"));
    org.assertj.core.api.Assertions.assertThat(columns.getExpected().getValue()).isEqualTo(java.util.List.of("id", "name"));
    org.assertj.core.api.Assertions.assertThat(columns.getActual().getValue()).isEqualTo(java.util.List.of("id"));
    AssertionFailedError property = org.junit.jupiter.api.Assertions.assertThrows(AssertionFailedError.class,
        () -> assertThatTable(warehouse.table("/a/in")).hasProperty("write.format.default", "orc"));
    org.assertj.core.api.Assertions.assertThat(property.getExpected().getValue()).isEqualTo("orc");
  }
}
