package dev.transforms.runtime.catalog;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Keeps secrets out of log lines and error messages.
 *
 * <p>A configuration key is secret when its last part names a credential ({@code password},
 * {@code secret}, {@code token}, {@code credential}, {@code secret-access-key}, {@code Authorization}...), and every value
 * that came from a {@code ${VAR}} reference in such a key is secret too. {@link #mask(String)}
 * replaces each secret value wherever it appears in a text, so a driver error that echoes a password
 * is masked as well.
 */
public final class SecretMasker {

  /** What a masked value is shown as. */
  public static final String MASK = "****";

  private static final Pattern SECRET_KEY = Pattern.compile(
      "(?i).*(password|passwd|secret|token|credential|access-key|private-key|api-key|apikey|session-key|authorization)[^.]*$");

  private final List<String> secretValues;

  SecretMasker(Collection<String> secretValues) {
    // Longest first, so a secret containing another is masked whole.
    this.secretValues = secretValues.stream()
        .filter(v -> v != null && v.length() >= 3)
        .distinct()
        .sorted((a, b) -> Integer.compare(b.length(), a.length()))
        .toList();
  }

  /**
   * Whether a configuration key holds a secret.
   *
   * @param key a key such as {@code catalog.prod.credential}
   * @return whether its value must never be shown
   */
  public static boolean isSecretKey(String key) {
    return SECRET_KEY.matcher(key.toLowerCase(Locale.ROOT)).matches();
  }

  /**
   * Replaces every secret value in a text with {@value #MASK}.
   *
   * @param text any text, such as an exception message; may be null
   * @return the text with secrets masked
   */
  public String mask(String text) {
    if (text == null) {
      return null;
    }
    String masked = text;
    for (String secret : secretValues) {
      masked = masked.replace(secret, MASK);
    }
    return masked;
  }

  /**
   * A copy of a property map fit for printing: secret keys show {@value #MASK} and other values are
   * masked as by {@link #mask(String)}.
   *
   * @param properties configuration properties
   * @return a printable copy, in the same order
   */
  public Map<String, String> maskAll(Map<String, String> properties) {
    Map<String, String> shown = new LinkedHashMap<>();
    properties.forEach((k, v) -> shown.put(k, isSecretKey(k) ? MASK : mask(v)));
    return shown;
  }
}
