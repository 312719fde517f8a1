package dev.transforms.runtime.internal.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretMaskingConverterTest {

  private static final String PATTERN = "%maskSecrets{%p %c{1}: %m%n%ex}";

  @TempDir Path dir;

  /** A REST catalog whose URI carries a token, and whose credential comes from the environment. */
  private TransformsConfig restConfig() throws Exception {
    Path file = dir.resolve("transforms.properties");
    Files.writeString(file, String.join("\n",
        "catalog.prod.type=rest",
        "catalog.prod.uri=http://127.0.0.1:1/api/catalog?token=Uri-Token-4711",
        "catalog.prod.credential=${PROD_CREDENTIAL}",
        "mount./Prod=prod:analytics"));
    return TransformsConfig.load(Optional.of(file), Optional.empty(),
        Map.of("PROD_CREDENTIAL", "client:cred-secret-0815"), dir);
  }

  @Test
  void aLineAndItsStackTraceAreMaskedWithTheSecretsOfLoadedConfigurations() throws Exception {
    restConfig();
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    PatternLayout layout = PatternLayout.newBuilder().withConfiguration(context.getConfiguration())
        .withPattern(PATTERN).build();
    Log4jLogEvent event = Log4jLogEvent.newBuilder().setLoggerName("org.apache.iceberg.rest.Demo")
        .setLevel(Level.WARN)
        .setMessage(new SimpleMessage("connecting with client:cred-secret-0815 to http://u:pw-9@h/x?api_key=k-42"))
        .setThrown(new IllegalStateException("refused for token client:cred-secret-0815"))
        .build();

    String line = layout.toSerializable(event);

    assertThat(line).startsWith("WARN Demo: connecting with **** to http://u:****@h/x?api_key=****")
        .contains("java.lang.IllegalStateException: refused for token ****", "\tat ")
        .doesNotContain("cred-secret-0815").doesNotContain("pw-9").doesNotContain("k-42");
  }

  /**
   * Iceberg's REST client warns that it falls back to an OAuth2 endpoint under the catalog URI, and
   * prints that URI with its token. Through the converter the warning is masked, and so is the error
   * that says the catalog cannot be reached.
   */
  @Test
  void icebergsWarningAboutAnUnreachableRestCatalogKeepsItsTokenMasked() throws Exception {
    TransformsConfig config = restConfig();
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration logging = context.getConfiguration();
    StringWriter captured = new StringWriter();
    PatternLayout layout = PatternLayout.newBuilder().withConfiguration(logging).withPattern(PATTERN).build();
    WriterAppender appender = WriterAppender.createAppender(layout, null, captured, "captured", false, true);
    appender.start();
    LoggerConfig root = logging.getRootLogger();
    Level level = root.getLevel();
    root.addAppender(appender, Level.WARN, null);
    root.setLevel(Level.WARN);
    context.updateLoggers();
    try (Catalogs catalogs = new Catalogs(config)) {
      assertThatThrownBy(() -> catalogs.catalog("prod"))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("Cannot start catalog 'prod' (rest, uri http://127.0.0.1:1/api/catalog?token=****)")
          .hasMessageNotContaining("Uri-Token-4711");
    } finally {
      root.removeAppender("captured");
      root.setLevel(level);
      context.updateLoggers();
      appender.stop();
    }
    assertThat(captured.toString()).contains("OAuth2Manager", "http://127.0.0.1:1/api/catalog?token=****")
        .doesNotContain("Uri-Token-4711").doesNotContain("cred-secret-0815");
  }
}
