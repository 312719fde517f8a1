package dev.transforms.runtime.internal.config;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.secrets.SecretMasker;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code ${VAR}} and {@code ${VAR:-default}} references in configuration values, filled from the
 * environment, which keeps secrets out of the file. A <code>${</code> that starts no valid reference is an
 * error, since the value would otherwise reach a catalog with the <code>${</code> in it.
 */
public final class VariableReferences {

  private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?}");

  /** What can be quoted of a broken reference: its start, up to the variable name. */
  private static final Pattern BROKEN_REFERENCE = Pattern.compile("\\$\\{[A-Za-z0-9_]{0,40}");

  private VariableReferences() {
  }

  /**
   * A value with its references filled in.
   *
   * @param key the key the value belongs to, for errors and to tell whether it is a secret
   * @param origin where the key was set, for errors
   * @param value the value as written
   * @param environment the environment variables
   * @param secrets where the variables' values are added when the key names a secret
   * @return the value
   * @throws ConfigurationException for a reference to an unset variable without a default, or a broken one
   */
  public static String fill(String key, String origin, String value, Map<String, String> environment,
      Set<String> secrets) {
    Matcher matcher = REFERENCE.matcher(value);
    StringBuilder out = new StringBuilder();
    int end = 0;
    while (matcher.find()) {
      checkNoBrokenReference(key, origin, value.substring(end, matcher.start()));
      end = matcher.end();
      String variable = matcher.group(1);
      String replacement = environment.get(variable);
      if (replacement == null) {
        replacement = matcher.group(3);
      }
      if (replacement == null) {
        throw new ConfigurationException("Configuration key '" + key + "' (set by " + origin + ") references ${"
            + variable + "}, which is not set; export " + variable + " or give a default as ${" + variable
            + ":-value}");
      }
      if (SecretMasker.isSecretKey(key)) {
        secrets.add(replacement);
      }
      matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    checkNoBrokenReference(key, origin, value.substring(end));
    matcher.appendTail(out);
    return out.toString();
  }

  /** Refuses a <code>${</code> in text between references; only the variable name is quoted, never a secret. */
  private static void checkNoBrokenReference(String key, String origin, String text) {
    int start = text.indexOf("${");
    if (start < 0) {
      return;
    }
    Matcher name = BROKEN_REFERENCE.matcher(text.substring(start));
    String fragment = name.lookingAt() ? name.group() : "${";
    String where = "Configuration key '" + key + "' (set by " + origin + ")";
    if (text.indexOf('}', start) < 0) {
      throw new ConfigurationException(where + " has an unterminated reference '" + fragment
          + "'; close it with '}': ${VAR} or ${VAR:-default}");
    }
    throw new ConfigurationException(where + " has an invalid reference starting '" + fragment
        + "'; a reference is ${VAR} or ${VAR:-default}, VAR made of letters, digits and _, not starting with a digit");
  }
}
