package dev.transforms.singlenode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.AdvisoryException;
import dev.transforms.api.AdvisoryLevel;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.Advisory;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The single-node advisory: a whole input read into memory, beside the same copy read in batches. */
public class SingleNodeAdvisoriesTest {

  @TempDir Path dir;
  Transforms runner;
  Catalog catalog;

  /** A runner whose threshold is two rows, at the given level, over a source of three rows. */
  private void open(String level) throws IOException {
    Path file = dir.resolve(TransformsConfig.FILE_NAME);
    Files.writeString(file, "advisories=" + level + "\nadvisories.whole-input-in-memory.rows=2\n");
    runner = Transforms.open(TransformsConfig.load(Optional.of(file), Optional.of(dir.resolve("warehouse")), Map.of(),
        dir));
    catalog = runner.catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    Table source = catalog.createTable(SingleNodeEngineTest.SOURCE, SingleNodeEngineTest.SCHEMA);
    SingleNodeEngineTest.append(source, 1, 2, 3);
  }

  @AfterEach
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  /** Copies the input read whole. */
  public static class Whole {
    @Transform(name = "whole")
    public void copy(@TableInput("/src/people") IcebergInput in, @TableOutput("/out/whole") IcebergOutput out) {
      out.writeTable(in.arrow());
    }
  }

  /** Copies the input read in batches. */
  public static class Batched {
    @Transform(name = "batched")
    public void copy(@TableInput("/src/people") IcebergInput in, @TableOutput("/out/batched") IcebergOutput out) {
      out.writeTable(batches(in.arrowReader(2)));
    }
  }

  /** Copies the input read whole, with level error on the annotation. */
  public static class WholeStrict {
    @Transform(name = "whole-strict", advisories = AdvisoryLevel.ERROR)
    public void copy(@TableInput("/src/people") IcebergInput in, @TableOutput("/out/strict") IcebergOutput out) {
      out.writeTable(in.arrow());
    }
  }

  static Iterable<VectorSchemaRoot> batches(ArrowReader reader) {
    return () -> new Iterator<>() {
      Boolean next;

      @Override public boolean hasNext() {
        if (next == null) {
          try {
            next = reader.loadNextBatch();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        return next;
      }

      @Override public VectorSchemaRoot next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        next = null;
        try {
          return reader.getVectorSchemaRoot();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }

  @Test
  void readingAWholeLargeInputEarnsTheAdvisoryAndReadingItInBatchesDoesNot() throws IOException {
    open("warn");
    BuildReport report = runner.build(Whole.class, Batched.class, WholeStrict.class);
    TransformResult whole = report.result("whole").orElseThrow();
    assertThat(whole.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(whole.advisories()).singleElement().satisfies(a -> {
      assertThat(a.rule()).isEqualTo("whole-input-in-memory");
      assertThat(a.dataset()).hasValue(DatasetPath.of("/src/people"));
      assertThat(a.detail()).contains("arrow()", "3 rows");
    });
    TransformResult batched = report.result("batched").orElseThrow();
    assertThat(batched.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(batched.advisories()).isEmpty();
    assertThat(SingleNodeEngineTest.rows(catalog.loadTable(TableIdentifier.of("out", "batched")))).hasSize(3);

    TransformResult strict = report.result("whole-strict").orElseThrow();
    assertThat(strict.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(strict.error()).get().isInstanceOf(AdvisoryException.class).asString()
        .contains("whole-input-in-memory", "arrowReader()");
    assertThat(catalog.tableExists(TableIdentifier.of("out", "strict"))).isFalse();
  }

  @Test
  void levelOffInspectsNothing() throws IOException {
    open("off");
    BuildReport report = runner.build(Whole.class);
    assertThat(report.succeeded()).isTrue();
    assertThat(report.advisories()).extracting(Advisory::rule).isEmpty();
  }
}
