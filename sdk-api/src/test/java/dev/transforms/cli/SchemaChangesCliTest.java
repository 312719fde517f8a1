package dev.transforms.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.Incremental;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.testengine.IdTables;
import dev.transforms.testengine.TestInput;
import dev.transforms.testengine.TestOutput;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line shows what a build did to an output's schema ({@code build} and {@code show}), and
 * builds in full on request ({@code build --full}), which is the way out the incremental errors name.
 */
public class SchemaChangesCliTest {

  @TempDir Path dir;

  static volatile boolean addNote;

  /** Copies new ids; once told to, its rows carry a note column too. */
  public static class Notes {
    @Transform
    @Incremental
    public void notes(@TableInput("/cli/in") TestInput in, @TableOutput("/cli/notes") TestOutput out) {
      if (addNote) {
        out.addColumn("note");
      }
      out.append(in.addedIds().stream().mapToLong(Long::longValue).toArray());
    }
  }

  private TransformsCliTest.Run run(String... args) {
    return TransformsCliTest.run(dir, args);
  }

  @Test
  void buildAndShowListTheSchemaChangesAndBuildFullIsTheWayOut() throws java.io.IOException {
    TransformsCliTest.seed(dir.resolve("warehouse"));
    addNote = false;
    assertThat(run("--class", Notes.class.getName(), "build").exitCode()).isEqualTo(TransformsCli.OK);
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      IdTables.append(catalogs.catalog("local").loadTable(TableIdentifier.of("cli", "in")), null, Map.of(), 3);
    }
    addNote = true;

    TransformsCliTest.Run refused = run("--class", Notes.class.getName(), "build");
    assertThat(refused.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(refused.out()).contains("note: not in the table", "transforms build --full Notes.notes");

    TransformsCliTest.Run full = run("--class", Notes.class.getName(), "build", "--full", "Notes.notes",
        "--report", "build.html");
    assertThat(full.exitCode()).as(full.out()).isEqualTo(TransformsCli.OK);
    assertThat(full.out()).contains("full", "a full build was asked for (--full)", "schema: note added (string)");
    assertThat(java.nio.file.Files.readString(dir.resolve("build.html"))).contains("schema: note added (string)");

    TransformsCliTest.Run show = run("show", "/cli/notes");
    // The refused build had taken id 2 for its note; ids are never given twice, so the published note is 3.
    assertThat(show.out()).contains("3: note: optional string", "      schema: note added (string)");
  }
}
