package dev.transforms.runtime.internal.config;

import dev.transforms.api.ConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.iceberg.SnapshotRef;

/**
 * The names a table's branches may have: the ones people build on ({@code transforms build --branch NAME}),
 * {@code main}, and the SDK's own staging branches, one per build ({@value #STAGING_PREFIX}BUILD).
 */
public final class BranchNames {

  /** Prefix of the staging branches builds write to before they publish. */
  public static final String STAGING_PREFIX = "transforms_";

  private static final Pattern LEGAL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

  private BranchNames() {}

  /**
   * The staging branch of a build.
   *
   * @param buildId the build
   * @return the branch name
   */
  public static String staging(String buildId) {
    return STAGING_PREFIX + buildId;
  }

  /**
   * Checks a branch name given by a person.
   *
   * @param name the name
   * @return the name
   * @throws IllegalArgumentException naming the branch, if it is empty, has characters other than
   *     letters, digits, {@code -} and {@code _}, is longer than 64, is {@code main}, or starts with the
   *     SDK's own staging-branch prefix
   */
  public static String check(String name) {
    if (name == null || !LEGAL.matcher(name).matches()) {
      throw new IllegalArgumentException("Branch '" + name + "' is not a branch name a build can use: it must be 1 "
          + "to 64 letters, digits, '-' or '_', starting with a letter or digit");
    }
    if (name.equals(SnapshotRef.MAIN_BRANCH)) {
      throw new IllegalArgumentException("Branch 'main' is what an ordinary build publishes; leave out --branch to "
          + "build main, or name another branch");
    }
    if (name.toLowerCase(Locale.ROOT).startsWith(STAGING_PREFIX)) {
      throw new IllegalArgumentException("Branch '" + name + "' starts with '" + STAGING_PREFIX
          + "', the prefix of the SDK's own staging branches; choose another name");
    }
    return name;
  }

  /**
   * Reads a list of branches to fall back to, {@code main} among them if it is named.
   *
   * @param key the configuration key the list was set by, for the errors
   * @param configured the value: branch names separated by commas
   * @return the names, in order
   * @throws ConfigurationException naming the key, if it names no branch or one no build can use
   */
  public static List<String> fallbacks(String key, String configured) {
    List<String> names = new ArrayList<>();
    for (String part : configured.split(",")) {
      String branch = part.strip();
      if (branch.isEmpty()) {
        continue;
      }
      if (!branch.equals(SnapshotRef.MAIN_BRANCH)) {
        try {
          check(branch);
        } catch (IllegalArgumentException e) {
          throw new ConfigurationException("Configuration key '" + key + "' names a branch no build can use: "
              + e.getMessage());
        }
      }
      names.add(branch);
    }
    if (names.isEmpty()) {
      throw new ConfigurationException("Configuration key '" + key + "' names no branch; leave it out to fall "
          + "back to main");
    }
    return names;
  }
}
