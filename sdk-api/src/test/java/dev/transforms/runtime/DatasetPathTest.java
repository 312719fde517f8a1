package dev.transforms.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.InvalidPathException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DatasetPathTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "/Examples/iceberg/row-updates",
      "/a/b",
      "/single",
      "/with space/and-hyphen",
      "/quote'/double\"quote",
      "/back`tick/t",
      "/x/; DROP TABLE x",
      "/unicode/données/表",
      "/dots/a.b/c...d",
      "/trailing-dot./x",
  })
  void acceptsLegalPaths(String text) {
    DatasetPath path = DatasetPath.of(text);
    assertThat(path.toString()).isEqualTo(text);
    assertThat(String.join("/", path.segments())).isEqualTo(text.substring(1));
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "\"\"                | Invalid dataset path '': it is empty; a path is absolute, like /Examples/iceberg/row-updates",
      "relative/path     | Invalid dataset path 'relative/path': it is not absolute; start it with '/'",
      "/                 | Invalid dataset path '/': it names the root, not a dataset; add at least one segment",
      "/a/b/             | Invalid dataset path '/a/b/': it ends with '/'; remove the trailing slash",
      "/a//b             | Invalid dataset path '/a//b': it has an empty segment ('//')",
      "/a/./b            | Invalid dataset path '/a/./b': it has a '.' segment; relative segments are not allowed",
      "/a/../b           | Invalid dataset path '/a/../b': it has a '..' segment; relative segments are not allowed",
      "/..               | Invalid dataset path '/..': it has a '..' segment; relative segments are not allowed",
      "./a               | Invalid dataset path './a': it is not absolute; start it with '/'",
      "\"/Shop/raw/orders \" | \"Invalid dataset path '/Shop/raw/orders ': its segment 'orders ' ends with a space; a name with spaces at either end looks like another, so remove them\"",
      "\"/Shop/ raw/orders\" | \"Invalid dataset path '/Shop/ raw/orders': its segment ' raw' starts with a space; a name with spaces at either end looks like another, so remove them\"",
  })
  void rejectsIllegalPathsNamingTheRule(String text, String message) {
    assertThatThrownBy(() -> DatasetPath.of(text)).isInstanceOf(InvalidPathException.class).hasMessage(message);
  }

  @Test
  void rejectsControlCharactersShowingThemEscaped() {
    assertThatThrownBy(() -> DatasetPath.of("/a/b\nc"))
        .isInstanceOf(InvalidPathException.class)
        .hasMessage("Invalid dataset path '/a/b\\u000Ac': it contains the control character U+000A at position 4");
    assertThatThrownBy(() -> DatasetPath.of("/tab\there"))
        .hasMessageContaining("control character U+0009 at position 4");
  }

  /**
   * On an object store, {@code /raw/odd#1} put every file of its table at the key {@code raw/odd}: S3's file IO
   * cuts a location at {@code #} or {@code ?}, and the table was left without its metadata.
   */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "/raw/odd#1     | '#' at position 8 | fragment",
      "/raw/q?x=1     | '?' at position 6 | query",
      "/#/orders      | '#' at position 1 | fragment",
  })
  void rejectsWhatObjectStoresReadAsUriSyntaxNamingItsPosition(String text, String where, String part) {
    assertThatThrownBy(() -> DatasetPath.of(text))
        .isInstanceOf(InvalidPathException.class)
        .hasMessageStartingWith("Invalid dataset path '" + text + "': it contains " + where)
        .hasMessageContaining("the start of a URI " + part)
        .hasMessageEndingWith("Use another character, such as '-' or '_'");
  }

  @Test
  void rejectsNull() {
    assertThatThrownBy(() -> DatasetPath.of(null)).isInstanceOf(InvalidPathException.class)
        .hasMessageStartingWith("Invalid dataset path: null");
  }

  @Test
  void boundsTheLengthOfThePathAndOfEachSegment() {
    String longSegment = "/a/" + "x".repeat(DatasetPath.MAX_SEGMENT_LENGTH + 1);
    assertThatThrownBy(() -> DatasetPath.of(longSegment))
        .hasMessageEndingWith("a segment is 256 characters long; the limit is 255");
    String longPath = "/a".repeat(DatasetPath.MAX_LENGTH / 2 + 1);
    assertThatThrownBy(() -> DatasetPath.of(longPath))
        .hasMessageEndingWith("it is 1026 characters long; the limit is 1024");
    assertThat(DatasetPath.of("/a/" + "x".repeat(DatasetPath.MAX_SEGMENT_LENGTH)).name()).hasSize(255);
  }

  @Test
  void prefixesMatchWholeSegments() {
    DatasetPath path = DatasetPath.of("/a/bc/d");
    assertThat(path.isUnder("/")).isTrue();
    assertThat(path.isUnder("/a")).isTrue();
    assertThat(path.isUnder("/a/bc")).isTrue();
    assertThat(path.isUnder("/a/b")).isFalse();
    assertThat(path.isUnder("/a/bc/d")).isTrue();
    assertThat(path.name()).isEqualTo("d");
  }
}
