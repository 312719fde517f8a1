package dev.transforms.runtime.maintenance;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.config.ConfigValues;
import dev.transforms.runtime.internal.catalog.Catalogs;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Maintenance policies per path prefix, declared in {@code transforms.properties} as
 * {@code maintain.PREFIX.OPTION=VALUE}, where {@code PREFIX} is a mount, a folder or a table path and
 * {@code OPTION} one of {@link #OPTIONS} (the long options of {@code transforms maintain}):
 *
 * <pre>
 * maintain./Shop.actions=compact,expire
 * maintain./Shop.older-than=7d
 * maintain./Shop/raw/orders.retain-last=20
 * </pre>
 *
 * <p>{@code transforms maintain --all} maintains every table under a prefix that has a policy. Each
 * option of a table comes from the deepest prefix that sets it; what no prefix sets has the command's
 * default. A policy cannot relax a safety rule: there is no key to allow a retention under three days,
 * and an {@code orphans-older-than} under three days is refused when the policies are read.
 *
 * <p>Every key is checked when the policies are read, and an error names the key and where it was set
 * ({@link ConfigValues#origin}).
 */
public final class MaintenancePolicies {

  /** The prefix of the keys of maintenance policies. */
  public static final String PREFIX = TransformsConfig.MAINTENANCE_PREFIX;

  /** The options a policy may set. */
  public static final Set<String> OPTIONS = Set.of("actions", "older-than", "retain-last", "keep-incremental-state",
      "orphans-older-than", "delete-orphans", "equal-scheme", "equal-authority", "metadata-delete-after-commit",
      "metadata-previous-versions");
  /** The actions {@code actions} may list. */
  public static final Set<String> ACTIONS = Set.of("compact", "rewrite-manifests", "expire", "remove-orphans");

  /** The longest age accepted: older snapshots and files cannot exist, and the instant would overflow. */
  public static final Duration MAX_AGE = Duration.ofDays(36_500);

  private final Map<String, Map<String, String>> byPrefix;

  private MaintenancePolicies(Map<String, Map<String, String>> byPrefix) {
    this.byPrefix = byPrefix;
  }

  /**
   * Reads and checks the policies of a configuration.
   *
   * @param config the configuration's values ({@code TransformsConfig.values()})
   * @return the policies, possibly none
   * @throws ConfigurationException naming the key whose prefix, option or value is wrong
   */
  public static MaintenancePolicies of(ConfigValues config) {
    Map<String, Map<String, String>> byPrefix = new TreeMap<>();
    config.withPrefix(PREFIX).forEach((key, value) -> {
      String rest = key.substring(PREFIX.length());
      int dot = rest.lastIndexOf('.');
      String option = dot < 0 ? "" : rest.substring(dot + 1);
      String setBy = " (set by " + config.origin(key) + ")";
      if (dot <= 0 || !OPTIONS.contains(option)) {
        throw new ConfigurationException("Configuration key '" + key + "' must be maintain.PREFIX.OPTION with OPTION "
            + "one of " + new TreeSet<>(OPTIONS) + ", such as maintain./Shop.older-than=7d" + setBy);
      }
      String prefix = rest.substring(0, dot);
      if (!prefix.equals("/")) {
        try {
          DatasetPath.of(prefix);
        } catch (RuntimeException e) {
          throw new ConfigurationException("Configuration key '" + key + "' has the prefix '" + prefix
              + "', which is not / or a dataset path: " + e.getMessage() + setBy);
        }
      }
      try {
        checkValue(option, value.strip());
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException("Maintenance policy maintain." + prefix + ".*: " + e.getMessage() + " (key '"
            + key + "', set by " + config.origin(key) + ")");
      }
      byPrefix.computeIfAbsent(prefix, p -> new TreeMap<>()).put(option, value.strip());
    });
    MaintenancePolicies policies = new MaintenancePolicies(byPrefix);
    for (String prefix : byPrefix.keySet()) {
      try {
        policies.optionsFor(prefix.equals("/") ? "/x" : prefix);
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException("Maintenance policy maintain." + prefix + ".*: " + e.getMessage());
      }
    }
    return policies;
  }

  /** Checks the value of one policy key on its own, as the options of the same name would be checked. */
  private static void checkValue(String option, String value) {
    switch (option) {
      case "actions" -> {
        for (String action : value.split(",")) {
          if (!ACTIONS.contains(action.strip())) {
            throw new IllegalArgumentException("actions: unknown action '" + action.strip() + "'; use "
                + new TreeSet<>(ACTIONS));
          }
        }
      }
      case "older-than" -> age(option, value);
      case "orphans-older-than" -> {
        if (age(option, value).compareTo(MaintenanceOptions.MIN_ORPHAN_AGE) < 0) {
          throw new IllegalArgumentException(option + " '" + value + "' is under "
              + MaintenanceOptions.MIN_ORPHAN_AGE.toDays() + " days, and a policy cannot relax that safety rule: a "
              + "file of a write still running looks like an orphan. Remove young orphans of one table with "
              + "transforms maintain PATH --remove-orphans --orphans-older-than AGE "
              + "--allow-deleting-files-of-running-writes");
        }
      }
      case "retain-last", "metadata-previous-versions" -> {
        if (integer(option, value) < 1) {
          throw new IllegalArgumentException(option + " '" + value + "' must be at least 1");
        }
      }
      case "keep-incremental-state", "delete-orphans", "metadata-delete-after-commit" -> bool(option, value);
      case "equal-scheme", "equal-authority" -> pairs(option, value);
      default -> throw new IllegalArgumentException("unknown option " + option);
    }
  }

  /**
   * The prefixes that have a policy.
   *
   * @return the prefixes, sorted
   */
  public List<String> prefixes() {
    return List.copyOf(byPrefix.keySet());
  }

  /**
   * The options of a table: each from the deepest prefix that sets it.
   *
   * @param path the table's dataset path
   * @return the options
   * @throws IllegalArgumentException naming the option whose value is wrong
   */
  public MaintenanceOptions optionsFor(String path) {
    Map<String, String> merged = new LinkedHashMap<>();
    byPrefix.entrySet().stream()
        .filter(e -> covers(e.getKey(), path))
        .sorted(Comparator.comparingInt((Map.Entry<String, Map<String, String>> e) -> e.getKey().length()))
        .forEach(e -> merged.putAll(e.getValue()));
    Set<String> actions = new TreeSet<>(ACTIONS);
    if (merged.containsKey("actions")) {
      actions.clear();
      for (String action : merged.get("actions").split(",")) {
        String name = action.strip();
        if (!ACTIONS.contains(name)) {
          throw new IllegalArgumentException("actions: unknown action '" + name + "'; use " + new TreeSet<>(ACTIONS));
        }
        actions.add(name);
      }
    }
    return new MaintenanceOptions(actions.contains("expire"),
        age("older-than", merged.getOrDefault("older-than", "5d")),
        integer("retain-last", merged.getOrDefault("retain-last", "1")),
        bool("keep-incremental-state", merged.getOrDefault("keep-incremental-state", "false")),
        actions.contains("rewrite-manifests"), actions.contains("compact"), actions.contains("remove-orphans"),
        age("orphans-older-than", merged.getOrDefault("orphans-older-than", "3d")),
        bool("delete-orphans", merged.getOrDefault("delete-orphans", "false")), false,
        pairs("equal-scheme", merged.get("equal-scheme")), pairs("equal-authority", merged.get("equal-authority")),
        Optional.ofNullable(merged.get("metadata-delete-after-commit")).map(v -> bool("metadata-delete-after-commit", v)),
        Optional.ofNullable(merged.get("metadata-previous-versions")).map(v -> integer("metadata-previous-versions", v)));
  }

  /**
   * The tables that a policy covers, each once, in path order.
   *
   * @param maintenance the maintenance of a configuration's tables, whose catalogs are looked in (only those
   *     that exist already)
   * @return the tables' dataset paths
   */
  public List<DatasetPath> tables(TableMaintenance maintenance) {
    Catalogs catalogs = maintenance.catalogs();
    Set<String> paths = new TreeSet<>();
    for (String prefix : byPrefix.keySet()) {
      CatalogTables.under(catalogs, prefix).forEach(found -> paths.add(found.path()));
    }
    List<DatasetPath> tables = new ArrayList<>();
    paths.forEach(p -> tables.add(DatasetPath.of(p)));
    return tables;
  }

  private static boolean covers(String prefix, String path) {
    return prefix.equals("/") || path.equals(prefix) || path.startsWith(prefix + "/");
  }

  /**
   * Parses an age: a whole number with {@code d}, {@code h}, {@code m} or {@code s}, or ISO-8601
   * ({@code P5D}).
   *
   * @param option the option it was given to, for the error
   * @param text the text
   * @return the age, from zero to {@link #MAX_AGE}
   * @throws IllegalArgumentException naming the option, if the text is not an age or out of range
   */
  public static Duration age(String option, String text) {
    Duration age = parseAge(option, text);
    if (age.isNegative()) {
      throw new IllegalArgumentException(option + " '" + text + "' is negative; write an age such as 5d");
    }
    if (age.compareTo(MAX_AGE) > 0) {
      throw new IllegalArgumentException(option + " '" + text + "' is more than " + MAX_AGE.toDays() + " days (100 "
          + "years); nothing that old exists: give a shorter age, such as 365d");
    }
    return age;
  }

  private static Duration parseAge(String option, String text) {
    String value = text.strip().toLowerCase(Locale.ROOT);
    try {
      if (value.startsWith("p")) {
        return Duration.parse(value.toUpperCase(Locale.ROOT));
      }
      if (value.length() >= 2) {
        long amount = Long.parseLong(value.substring(0, value.length() - 1));
        switch (value.charAt(value.length() - 1)) {
          case 'd':
            return Duration.ofDays(amount);
          case 'h':
            return Duration.ofHours(amount);
          case 'm':
            return Duration.ofMinutes(amount);
          case 's':
            return Duration.ofSeconds(amount);
          default:
            break;
        }
      }
    } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
      // fall through to the error below
    }
    throw new IllegalArgumentException(option + " '" + text + "' is not an age; write 5d, 12h, 30m or P5D");
  }

  /**
   * Parses {@code A=B} pairs, separated by commas.
   *
   * @param option the option, for the error
   * @param values the pairs, or null for none
   * @return the pairs
   * @throws IllegalArgumentException naming the option: a pair that is not {@code A=B}, or a name mapped
   *     twice to different names ({@code s3a=s3,s3a=gs}), which would leave one of them unused
   */
  public static Map<String, String> pairs(String option, String values) {
    Map<String, String> pairs = new LinkedHashMap<>();
    if (values == null || values.isBlank()) {
      return pairs;
    }
    for (String part : values.split(",")) {
      String value = part.strip();
      int eq = value.indexOf('=');
      if (eq <= 0 || eq == value.length() - 1) {
        throw new IllegalArgumentException(option + " '" + value + "' must be LISTED=METADATA, such as s3a=s3");
      }
      String listed = value.substring(0, eq).strip();
      String metadata = value.substring(eq + 1).strip();
      String before = pairs.putIfAbsent(listed, metadata);
      if (before != null && !before.equals(metadata)) {
        throw new IllegalArgumentException(option + " maps '" + listed + "' twice, to '" + before + "' and to '"
            + metadata + "'; keep one");
      }
    }
    return pairs;
  }

  private static boolean bool(String option, String value) {
    if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(value);
    }
    throw new IllegalArgumentException(option + " '" + value + "' is not true or false");
  }

  private static int integer(String option, String value) {
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " '" + value + "' is not a whole number");
    }
  }
}
