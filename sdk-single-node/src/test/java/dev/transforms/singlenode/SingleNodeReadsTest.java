package dev.transforms.singlenode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.ReadMode;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Read modes, string filters and the guard rails of the staged output table. */
public class SingleNodeReadsTest {

  @TempDir Path warehouse;
  Transforms runner;
  Catalog catalog;
  Table source;

  @BeforeEach
  void setUp() {
    runner = Transforms.open(TransformsConfig.embedded(warehouse));
    catalog = runner.catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    source = catalog.createTable(SingleNodeEngineTest.SOURCE, SingleNodeEngineTest.SCHEMA);
    SingleNodeEngineTest.append(source, 1, 2, 3);
    Modes.log.clear();
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  BuildReport build(Class<?> transforms) {
    return runner.build(transforms);
  }

  static List<Long> ids(VectorSchemaRoot root) {
    List<Long> ids = new ArrayList<>();
    BigIntVector vector = (BigIntVector) root.getVector("id");
    for (int i = 0; i < root.getRowCount(); i++) {
      ids.add(vector.get(i));
    }
    ids.sort(null);
    return ids;
  }

  /** Records what each read mode returns, and checks the staged table refuses what it cannot stage. */
  public static class Modes {
    static final List<String> log = new ArrayList<>();

    @Transform(name = "modes")
    public void run(@TableInput("/src/people") IcebergInput in, @TableOutput("/out/people") IcebergOutput out) {
      log.add("current=" + ids(in.arrow(ReadMode.CURRENT)));
      log.add("previous=" + ids(in.arrow(ReadMode.PREVIOUS)));
      log.add("added=" + ids(in.arrow(ReadMode.ADDED)));
      log.add("filtered=" + ids(in.scan("id >= 2")));
      log.add("columns=" + in.scan(org.apache.iceberg.expressions.Expressions.alwaysTrue(),
          java.util.OptionalLong.empty(), List.of("id")).getSchema().getFields().size());
      out.table().ifPresent(table -> {
        assertThatThrownBy(table::updateLocation)
            .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("not allowed during a transform");
        assertThatThrownBy(table::manageSnapshots).isInstanceOf(UnsupportedOperationException.class);
        log.add("staged-head=" + (table.currentSnapshot() != null));
      });
      out.writeTable(in.arrow());
    }
  }

  @Test
  void readModesFiltersAndColumns() {
    assertThat(build(Modes.class).succeeded()).isTrue();
    SingleNodeEngineTest.append(source, 4);
    BuildReport second = build(Modes.class);
    assertThat(second.succeeded()).isTrue();
    assertThat(Modes.log).containsExactly(
        "current=[1, 2, 3]", "previous=[]", "added=[1, 2, 3]", "filtered=[2, 3]", "columns=1",
        // second build: full (not @Incremental), so ADDED is every row
        "current=[1, 2, 3, 4]", "previous=[1, 2, 3]", "added=[1, 2, 3, 4]", "filtered=[2, 3, 4]", "columns=1",
        "staged-head=true");
    assertThat(SingleNodeEngineTest.rows(catalog.loadTable(SingleNodeEngineTest.OUT)))
        .isEqualTo(SingleNodeEngineTest.expected(1, 2, 3, 4));
  }
}
