package dev.transforms.runtime.internal.logging;

import dev.transforms.runtime.secrets.SecretMasker;
import java.util.List;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.core.pattern.ConverterKeys;
import org.apache.logging.log4j.core.pattern.LogEventPatternConverter;
import org.apache.logging.log4j.core.pattern.PatternConverter;
import org.apache.logging.log4j.core.pattern.PatternFormatter;

/**
 * A Log4j 2 pattern converter that masks secrets: {@code %maskSecrets{PATTERN}} formats
 * {@code PATTERN} and masks it with {@link SecretMasker#allLoaded()}, the secrets of every
 * configuration loaded in the JVM and every credential written inside a URI.
 *
 * <p>Why in the logging layer: Iceberg and Spark log catalog properties and URIs themselves (the REST
 * client's OAuth2 warning prints the catalog URI, token included), from code that never sees our
 * configuration. Log4j 2 is the logging of every Spark classpath, and the configuration the
 * {@code transforms} launcher uses wraps its whole pattern:
 * <pre>{@code appender.stderr.layout.pattern = %maskSecrets{%d{HH:mm:ss} %p %c{1}: %m%n%ex}}</pre>
 * A stack trace is always formatted inside the converter, so exception messages are masked too.
 */
@Plugin(name = "SecretMaskingConverter", category = PatternConverter.CATEGORY)
@ConverterKeys({"maskSecrets"})
public final class SecretMaskingConverter extends LogEventPatternConverter {

  private final List<PatternFormatter> formatters;

  private SecretMaskingConverter(List<PatternFormatter> formatters) {
    super("maskSecrets", "maskSecrets");
    this.formatters = formatters;
  }

  /**
   * Creates the converter; Log4j calls this for each {@code %maskSecrets{...}} in a pattern.
   *
   * @param config the logging configuration
   * @param options the nested pattern, as the only option
   * @return the converter
   * @throws IllegalArgumentException if there is not exactly one nested pattern
   */
  public static SecretMaskingConverter newInstance(Configuration config, String[] options) {
    if (options == null || options.length != 1) {
      throw new IllegalArgumentException("%maskSecrets takes one pattern, such as %maskSecrets{%m%n%ex}");
    }
    // alwaysWriteExceptions: the nested pattern then formats the throwable, so it is masked with the rest.
    List<PatternFormatter> formatters = PatternLayout.createPatternParser(config).parse(options[0], true, false, true);
    return new SecretMaskingConverter(List.copyOf(formatters));
  }

  @Override
  public void format(LogEvent event, StringBuilder toAppendTo) {
    StringBuilder line = new StringBuilder();
    for (PatternFormatter formatter : formatters) {
      formatter.format(event, line);
    }
    toAppendTo.append(SecretMasker.allLoaded().mask(line.toString()));
  }

  @Override
  public boolean handlesThrowable() {
    return formatters.stream().anyMatch(PatternFormatter::handlesThrowable);
  }
}
