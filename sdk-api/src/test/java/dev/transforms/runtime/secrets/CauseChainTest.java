package dev.transforms.runtime.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.ConfigurationException;
import dev.transforms.api.TransformFailedException;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.secrets.SecretMasker;
import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CauseChainTest {

  private static final SecretMasker PLAIN = SecretMasker.allLoaded();

  @Test
  void anErrorWithoutMessageShowsItsClassAndEveryCauseDownToTheReason() {
    Throwable error = new RuntimeException(null, new ExceptionInInitializerError(new IllegalStateException(
        "cannot load the engine", new ClassNotFoundException("org.example.MissingEngine"))));
    CauseChain chain = CauseChain.of(error, PLAIN);
    assertThat(chain.format("error: ", "  ")).isEqualTo(String.join(System.lineSeparator(),
        "error: java.lang.RuntimeException",
        "  caused by: java.lang.ExceptionInInitializerError",
        "  caused by: java.lang.IllegalStateException: cannot load the engine",
        "  caused by: java.lang.ClassNotFoundException: org.example.MissingEngine", ""));
    assertThat(chain.format("error: ", "  ")).doesNotContain("null");
  }

  @Test
  void aCauseItsParentAlreadyQuotesIsLeftOutButItsOwnCausesAreNot() {
    // What Spark raises when a task fails: the reason is quoted in the first line, a stack trace follows.
    FileNotFoundException missing = new FileNotFoundException("File file:/wh/t/data/0001.parquet does not exist");
    RuntimeException notFound = new RuntimeException("File does not exist: file:/wh/t/data/0001.parquet", missing);
    RuntimeException stage = new RuntimeException("Job aborted due to stage failure: Task 0 in stage 3.0 failed 1 "
        + "times, most recent failure: Lost task 0.0: " + notFound + "\n\tat org.apache.Foo.bar(Foo.java:1)\n", notFound);
    RuntimeException awaited = new RuntimeException("Exception thrown in awaitResult: ", stage);
    TransformFailedException failed = new TransformFailedException("Transform t failed: " + awaited, awaited);

    CauseChain chain = CauseChain.of(failed, PLAIN);

    assertThat(chain.entries()).extracting(CauseChain.Entry::line).containsExactly(
        "TransformFailedException: Transform t failed: java.lang.RuntimeException: Exception thrown in awaitResult:",
        "java.lang.RuntimeException: Job aborted due to stage failure: Task 0 in stage 3.0 failed 1 times, most recent "
            + "failure: Lost task 0.0: java.lang.RuntimeException: File does not exist: file:/wh/t/data/0001.parquet",
        "java.io.FileNotFoundException: File file:/wh/t/data/0001.parquet does not exist");
    assertThat(chain.format("", "")).doesNotContain("\tat ");
  }

  @Test
  void aWrapperMadeFromItsCauseIsPrintedOnce() {
    SQLException readOnly = new SQLException("[SQLITE_READONLY] Attempt to write a readonly database");
    CauseChain chain = CauseChain.of(new RuntimeException("Unknown failure", new RuntimeException(readOnly)), PLAIN);
    assertThat(chain.entries()).extracting(CauseChain.Entry::line).containsExactly(
        "java.lang.RuntimeException: Unknown failure",
        "java.lang.RuntimeException: java.sql.SQLException: [SQLITE_READONLY] Attempt to write a readonly database");
  }

  @Test
  void listItemsOfAMessageAreKeptUnderItsLine() {
    ConfigurationException mismatch = new ConfigurationException("The DataFrame does not fit the table. Columns that "
        + "differ:\n  - id: table bigint, data string\n  - extra: not in the table (data int)\nCast the columns.");
    CauseChain chain = CauseChain.of(new TransformFailedException("Transform t failed: " + mismatch, mismatch), PLAIN);
    assertThat(chain.entries()).hasSize(1);
    assertThat(chain.entries().get(0).items())
        .containsExactly("id: table bigint, data string", "extra: not in the table (data int)");
    assertThat(chain.format("error: ", "  ")).contains(
        "Columns that differ:" + System.lineSeparator() + "      - id: table bigint, data string"
            + System.lineSeparator() + "      - extra: not in the table (data int)")
        .doesNotContain("Cast the columns");
  }

  @Test
  void aCauseThatIsItsOwnAncestorEndsTheChain() {
    IllegalStateException first = new IllegalStateException("first");
    IllegalStateException second = new IllegalStateException("second", first);
    first.initCause(second);
    assertThat(CauseChain.of(first, PLAIN).entries()).hasSize(2);
  }

  @Test
  void secretsAreMaskedInEveryLineInTheMaskedCopyAndInTheStackTrace(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("transforms.properties");
    Files.writeString(file, "catalog.prod.type=rest\ncatalog.prod.uri=http://127.0.0.1:1\n"
        + "catalog.prod.credential=client:s3cr3t-of-cause-chain\nmount./=prod:ns\n");
    SecretMasker masker = TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir).masker();
    UncheckedIOException error = new UncheckedIOException("login failed",
        new java.io.IOException("bad credential client:s3cr3t-of-cause-chain for https://u:pw-in-uri@host/x?token=tok123"));

    assertThat(CauseChain.of(error, masker).format("", "")).contains("bad credential **** for https://u:****@host/x?token=****")
        .doesNotContain("s3cr3t").doesNotContain("pw-in-uri").doesNotContain("tok123");
    Throwable copy = CauseChain.masked(error, masker);
    assertThat(copy).isNotSameAs(error).hasMessage("login failed");
    assertThat(copy.getCause()).hasMessageContaining("bad credential ****").hasMessageNotContaining("s3cr3t");
    assertThat(copy.getCause().toString()).startsWith("java.io.IOException: ");
    assertThat(CauseChain.of(copy, PLAIN).summary()).isEqualTo("java.io.UncheckedIOException: login failed");
    assertThat(CauseChain.stackTrace(error, masker)).contains("\tat ").doesNotContain("s3cr3t");

    RuntimeException harmless = new RuntimeException("nothing secret here");
    assertThat(CauseChain.masked(harmless, masker)).isSameAs(harmless);
  }
}
