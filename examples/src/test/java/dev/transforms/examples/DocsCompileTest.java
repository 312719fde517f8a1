package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code java} block of README.md and docs/*.md compiles: whole files as they are, fragments
 * inside the template their page declares for them ({@link DocBlocks}), all against the SDK as it is
 * now. A page that shows code that no longer compiles fails the build, naming the page and line.
 */
class DocsCompileTest {

  @TempDir Path classes;

  @Test
  void everyJavaBlockOfTheDocsCompiles() {
    List<DocSnippets.Unit> units = new ArrayList<>();
    List<String> unwrapped = new ArrayList<>();
    int blocks = 0;
    for (Path page : DocSnippets.pages()) {
      for (DocBlocks.Block block : DocBlocks.read(page)) {
        if (!block.language().equals("java")) {
          continue;
        }
        blocks++;
        try {
          units.add(DocSnippets.unit(block, blocks));
        } catch (AssertionError e) {
          unwrapped.add(e.getMessage());
        }
      }
    }
    assertThat(unwrapped).as("java blocks without a wrapper").isEmpty();
    assertThat(units).as("java blocks compiled").hasSize(blocks).hasSizeGreaterThanOrEqualTo(31);
    assertThat(DocSnippets.compile(units, classes)).as("compile errors in the docs").isEmpty();
  }
}
