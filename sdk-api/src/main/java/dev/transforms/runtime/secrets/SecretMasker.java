package dev.transforms.runtime.secrets;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps secrets out of log lines and error messages.
 *
 * <p>A configuration key is secret when its last part names a credential ({@code password},
 * {@code secret}, {@code token}, {@code credential}, {@code secret-access-key}, {@code Authorization}...), and every value
 * that came from a {@code ${VAR}} reference in such a key is secret too. {@link #mask(String)}
 * replaces each secret value wherever it appears in a text, so a driver error that echoes a password
 * is masked as well.
 *
 * <p>Secrets written inside a URI are masked by their shape, whatever key holds the URI and whether or
 * not a configuration declared them: the password of {@code scheme://user:password@host}, and the value
 * of a query parameter named like a credential ({@code ?token=...}, {@code &password=...},
 * {@code X-Amz-Security-Token=...}).
 *
 * <p>Every configuration loaded in this JVM adds its secrets to {@link #allLoaded()}, the masker the
 * logging layer uses: log lines are written by code that has no configuration at hand (Iceberg's REST
 * client prints its URI in a warning).
 */
public final class SecretMasker {

  /** What a masked value is shown as. */
  public static final String MASK = "****";

  private static final String CREDENTIAL_WORDS =
      "password|passwd|secret|token|credential|access-key|private-key|api-key|apikey|session-key|authorization";

  private static final Pattern SECRET_KEY = Pattern.compile("(?i).*(" + CREDENTIAL_WORDS + ")[^.]*$");

  /** The password of {@code scheme://user:password@host}. */
  private static final Pattern URI_PASSWORD = Pattern.compile("(://[^/\\s:@]+:)([^/\\s@]+)(@)");

  /**
   * A query or matrix parameter named like a credential; {@code -} and {@code _} are alike in names. The
   * value ends where a URI in prose ends too (a space, a bracket, a comma, a quote).
   */
  private static final Pattern URI_SECRET_PARAMETER = Pattern.compile(
      "(?i)([?&;][\\w.-]*(?:" + CREDENTIAL_WORDS.replace("-", "[-_]?") + ")[\\w.-]*=)([^&\\s#;\"'()<>\\[\\]{},]+)");

  private static final Set<String> LOADED = new LinkedHashSet<>();
  private static volatile SecretMasker allLoaded = new SecretMasker(List.of());

  private final List<String> secretValues;

  public SecretMasker(Collection<String> secretValues) {
    // Longest first, so a secret containing another is masked whole.
    this.secretValues = secretValues.stream()
        .filter(v -> v != null && v.length() >= 3)
        .distinct()
        .sorted((a, b) -> Integer.compare(b.length(), a.length()))
        .toList();
  }

  /**
   * The masker of every secret of every configuration loaded in this JVM so far, URI secrets included.
   * The logging layer masks each line with it.
   *
   * @return the masker
   */
  public static SecretMasker allLoaded() {
    return allLoaded;
  }

  /** Adds a configuration's secrets to {@link #allLoaded()}. */
  public static void register(Collection<String> secretValues) {
    synchronized (LOADED) {
      if (LOADED.addAll(secretValues)) {
        allLoaded = new SecretMasker(LOADED);
      }
    }
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
   * The secrets written inside a value by their shape: URI passwords and credential-named query
   * parameters. The configuration declares them secret, so they are masked wherever they appear later,
   * inside a URI or not.
   *
   * @param value a configuration value, such as a catalog URI
   * @return the secret parts, possibly none
   */
  public static List<String> secretsInside(String value) {
    List<String> found = new java.util.ArrayList<>();
    for (Pattern pattern : List.of(URI_PASSWORD, URI_SECRET_PARAMETER)) {
      Matcher matcher = pattern.matcher(value);
      while (matcher.find()) {
        found.add(matcher.group(2));
      }
    }
    return found;
  }

  /**
   * Replaces every secret value in a text with {@value #MASK}, and every secret inside a URI.
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
    if (masked.indexOf('=') >= 0) {
      masked = URI_SECRET_PARAMETER.matcher(masked).replaceAll("$1" + Matcher.quoteReplacement(MASK));
    }
    if (masked.indexOf('@') >= 0) {
      masked = URI_PASSWORD.matcher(masked).replaceAll("$1" + Matcher.quoteReplacement(MASK) + "$3");
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
