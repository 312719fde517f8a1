package dev.transforms.runtime.internal.config;

import dev.transforms.api.ConfigurationException;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.runtime.config.ConfigValues;
import java.util.Locale;

/**
 * The {@code build.*} keys: how many transforms a build runs at once ({@code build.threads}), and the
 * schema-change policy of table outputs that declare none ({@code build.on-schema-change}).
 *
 * @param configuredThreads {@code build.threads}, or 0 when not set
 * @param onSchemaChange the policy, {@link SchemaChangePolicy#FAIL} unless set; never
 *     {@link SchemaChangePolicy#CONFIGURED}
 */
public record BuildSettings(int configuredThreads, SchemaChangePolicy onSchemaChange) {

  /** The key of how many transforms a build runs at once. */
  public static final String THREADS = "build.threads";

  /** The key of the schema-change policy ({@code fail}, {@code append_new_columns}, {@code sync_all_columns}). */
  public static final String ON_SCHEMA_CHANGE = "build.on-schema-change";

  /** The key of the branches a branch build falls back to for inputs without its branch. */
  public static final String BRANCH_FALLBACKS = "branch.fallbacks";

  /** The most transforms a build runs at once by default, however many cores the machine has. */
  public static final int DEFAULT_MAX_THREADS = 8;

  /**
   * Reads and checks the settings.
   *
   * @param values the configuration's values
   * @return the settings
   * @throws ConfigurationException naming the key and where it was set, for a thread count that is not a
   *     whole number from 1 to 256 or a policy that does not exist
   */
  public static BuildSettings of(ConfigValues values) {
    int threads = values.get(THREADS).map(v -> threads(v, values.origin(THREADS))).orElse(0);
    SchemaChangePolicy policy = values.get(ON_SCHEMA_CHANGE).map(v -> policy(v, values.origin(ON_SCHEMA_CHANGE)))
        .orElse(SchemaChangePolicy.FAIL);
    branchFallbacks(values);
    return new BuildSettings(threads, policy);
  }

  /**
   * The branches a branch build reads an input at, in order, when the input has no branch of the build's
   * name ({@value #BRANCH_FALLBACKS}; {@code main} unless set).
   *
   * @param values the configuration's values
   * @return the branch names
   * @throws ConfigurationException naming the key, if it names no branch or one no build can use
   */
  public static java.util.List<String> branchFallbacks(ConfigValues values) {
    return BranchNames.fallbacks(BRANCH_FALLBACKS,
        values.get(BRANCH_FALLBACKS).orElse(org.apache.iceberg.SnapshotRef.MAIN_BRANCH));
  }

  /**
   * How many transforms a build runs at once, at most: the machine's cores, at most
   * {@value #DEFAULT_MAX_THREADS}, unless set.
   *
   * @return the number of threads, at least 1
   */
  public int threads() {
    return configuredThreads > 0 ? configuredThreads
        : Math.max(1, Math.min(DEFAULT_MAX_THREADS, Runtime.getRuntime().availableProcessors()));
  }

  private static int threads(String value, String origin) {
    String trimmed = value.strip();
    try {
      int threads = Integer.parseInt(trimmed);
      if (threads >= 1 && threads <= 256) {
        return threads;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new ConfigurationException("Configuration key '" + THREADS + "' (set by " + origin
        + ") must be a whole number from 1 to 256, not '" + trimmed + "'");
  }

  /** The policy a value names: dbt's names, in any case, with - or _. */
  private static SchemaChangePolicy policy(String value, String origin) {
    String name = value.strip().toUpperCase(Locale.ROOT).replace('-', '_');
    for (SchemaChangePolicy policy : SchemaChangePolicy.values()) {
      if (policy != SchemaChangePolicy.CONFIGURED && policy.name().equals(name)) {
        return policy;
      }
    }
    throw new ConfigurationException("Configuration key '" + ON_SCHEMA_CHANGE + "' (set by " + origin
        + ") must be fail, append_new_columns or sync_all_columns, not '" + value.strip() + "'");
  }
}
