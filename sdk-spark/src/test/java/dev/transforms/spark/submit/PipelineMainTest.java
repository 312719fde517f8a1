package dev.transforms.spark.submit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.TransformsCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PipelineMainTest {

  @Test
  void aClasspathWithSparkAndHadoopRunsTheCommandLine() {
    assertThat(PipelineMain.missingClusterClass(PipelineMain.class.getClassLoader())).isNull();

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = PipelineMain.run(new String[] {"--version"}, new PrintStream(err, true, StandardCharsets.UTF_8));

    assertThat(code).isEqualTo(TransformsCli.OK);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void aClasspathWithoutHadoopIsNamedWithTheCommandsThatWork() throws Exception {
    try (URLClassLoader bare = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader())) {
      assertThat(PipelineMain.missingClusterClass(bare)).isEqualTo("org.apache.hadoop.conf.Configuration");
    }
  }
}
