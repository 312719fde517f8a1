package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;

/** The logging configuration the launcher and the demo run with masks credentials written in URIs. */
class LoggingConfigurationTest {

  @Test
  void theLaunchersLogLinesMaskATokenInACatalogUri() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Appender stderr = context.getConfiguration().getAppender("stderr");
    assertThat(stderr).as("the stderr appender of examples' log4j2.properties").isNotNull();
    Log4jLogEvent event = Log4jLogEvent.newBuilder().setLoggerName("org.apache.iceberg.rest.auth.OAuth2Manager")
        .setLevel(Level.WARN)
        .setMessage(new SimpleMessage("defaults to https://catalog.example.com/api?token=launcher-secret-1/v1/oauth/tokens"))
        .build();

    String line = new String(stderr.getLayout().toByteArray(event), java.nio.charset.StandardCharsets.UTF_8);

    assertThat(line).contains("WARN OAuth2Manager: defaults to https://catalog.example.com/api?token=****")
        .doesNotContain("launcher-secret-1");
  }
}
