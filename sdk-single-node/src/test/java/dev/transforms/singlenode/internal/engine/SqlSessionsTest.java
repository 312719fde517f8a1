package dev.transforms.singlenode.internal.engine;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

class SqlSessionsTest {

  @Test
  void withoutDuckDbOnTheClasspathSqlNamesBothArtifactsToAdd() {
    try (URLClassLoader bare = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader())) {
      assertThatThrownBy(() -> SqlSessions.checkAvailable("report", bare))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("Transform report calls sql(), which needs org.duckdb:duckdb_jdbc and "
              + "org.apache.arrow:arrow-c-data on the classpath")
          .hasMessageContaining("optional dependencies of dev.transforms:sdk-single-node");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertThatCode(() -> SqlSessions.checkAvailable("report", SqlSessions.class.getClassLoader()))
        .doesNotThrowAnyException();
  }
}
