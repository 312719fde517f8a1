package dev.transforms.runtime.internal.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.runtime.spi.TransformSpec;
import dev.transforms.testengine.IdTables;
import dev.transforms.testengine.TestInput;
import dev.transforms.testengine.TestOutput;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full build publishes only what the transform wrote: an existing output it left unwritten keeps its rows
 * and its state, so the transform is not taken for up to date with inputs it never wrote from.
 */
public class UnwrittenOutputTest {

  static final TableIdentifier SOURCE = TableIdentifier.of(Namespace.of("src"), "orders");
  static final TableIdentifier COPY = TableIdentifier.of(Namespace.of("out"), "copy");

  /** Whether {@link Pipeline#copy} writes its output: a transform with an early return. */
  static volatile boolean writes = true;

  @TempDir Path warehouse;
  BuildRunner runner;
  Catalog catalog;

  /** /src/orders -> copy -> /out/copy, writing only when {@link #writes} says so. */
  public static class Pipeline {
    @Transform(name = "copy")
    public void copy(@TableInput("/src/orders") TestInput in, @TableOutput("/out/copy") TestOutput out) {
      if (writes) {
        out.append(in.ids().stream().mapToLong(Long::longValue).toArray());
      }
    }
  }

  @BeforeEach
  void setUp() {
    writes = true;
    runner = new BuildRunner(TransformsConfig.embedded(warehouse));
    catalog = runner.catalogs().catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    IdTables.append(catalog.createTable(SOURCE, IdTables.SCHEMA), null, Map.of(), 1, 2);
  }

  @AfterEach
  void tearDown() {
    writes = true;
    runner.close();
  }

  private BuildReport build() {
    List<TransformSpec> specs = ReflectiveModels.transformsOf(Pipeline.class);
    return runner.run(BuildPlan.of(specs), BuildListener.NONE);
  }

  @Test
  void anOutputAFullBuildLeavesUnwrittenKeepsItsRowsAndItsStateAndTheTransformStaysOutOfDate() {
    assertThat(build().succeeded()).isTrue();
    Table copy = catalog.loadTable(COPY);
    long published = copy.currentSnapshot().snapshotId();
    String stateBefore = copy.properties().get("transforms.state.input./src/orders");
    IdTables.append(catalog.loadTable(SOURCE), null, Map.of(), 3);

    writes = false;
    BuildReport unwritten = build();

    assertThat(unwritten.succeeded()).as(unwritten.format()).isTrue();
    TransformResult result = unwritten.results().get(0);
    assertThat(result.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    OutputWrites output = result.outputs().get(0);
    assertThat(output.published()).isFalse();
    assertThat(output.snapshotId()).hasValue(published);
    assertThat(unwritten.format()).contains("-> /out/copy (local.out.copy): not written by the transform, nothing "
        + "published; it keeps its rows (snapshot " + published + ") and the transform stays out of date until a "
        + "build writes it");
    copy.refresh();
    assertThat(copy.currentSnapshot().snapshotId()).isEqualTo(published);
    assertThat(copy.properties()).containsEntry("transforms.state.input./src/orders", stateBefore);
    assertThat(copy.properties().keySet()).noneMatch(k -> k.startsWith(dev.transforms.runtime.internal.publish.StagingMarks.LEASE_PREFIX)
        || k.startsWith(dev.transforms.runtime.internal.publish.StagingMarks.SHAPE_PREFIX));
    assertThat(copy.refs().keySet()).containsExactly("main");
    assertThat(IdTables.ids(copy, null)).containsExactlyInAnyOrder(1L, 2L);

    // Not taken for up to date: the next build runs it again, and once it writes, it is published.
    assertThat(build().results().get(0).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    writes = true;
    BuildReport written = build();
    assertThat(written.results().get(0).outputs().get(0).published()).isTrue();
    copy.refresh();
    assertThat(copy.currentSnapshot().snapshotId()).isNotEqualTo(published);
    assertThat(IdTables.ids(copy, null)).contains(3L);
    assertThat(build().results().get(0).status()).isEqualTo(TransformResult.Status.UP_TO_DATE);
  }
}
