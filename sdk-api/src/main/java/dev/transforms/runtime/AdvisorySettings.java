package dev.transforms.runtime;

import dev.transforms.api.AdvisoryLevel;
import dev.transforms.api.ConfigurationException;
import dev.transforms.api.Transform;
import dev.transforms.runtime.config.ConfigValues;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The advisory level and the rules' thresholds, read from the configuration's {@code advisories} and
 * {@code advisories.OPTION} keys. Every key and value is checked when the configuration is loaded: an
 * unknown option or a value that is not a positive number is an error naming the key.
 *
 * @param level the configured level: {@code OFF}, {@code WARN} or {@code ERROR}
 * @param projections stacked projections that make a {@code withColumn} loop
 * @param collectRows rows an action may bring to the driver
 * @param smallFilesMin new data files a write must add before its file sizes are judged
 * @param smallFilesFraction share of the target file size below which the new files' average is small
 * @param wholeInputRows rows a single-node transform may read whole into memory
 */
public record AdvisorySettings(AdvisoryLevel level, int projections, long collectRows, int smallFilesMin,
    double smallFilesFraction, long wholeInputRows) {

  /** The key of the level ({@code off}, {@code warn}, {@code error}); the thresholds are keys under it. */
  public static final String LEVEL = "advisories";
  /** The key of the {@code withcolumn-loop} threshold. */
  public static final String PROJECTIONS = "advisories.withcolumn-loop.projections";
  /** The key of the {@code driver-collect} threshold. */
  public static final String COLLECT_ROWS = "advisories.driver-collect.rows";
  /** The key of the number of files from which {@code small-files} judges a write. */
  public static final String SMALL_FILES_MIN = "advisories.small-files.min-files";
  /** The key of the share of the target size below which {@code small-files} calls files small. */
  public static final String SMALL_FILES_FRACTION = "advisories.small-files.fraction";
  /** The key of the {@code whole-input-in-memory} threshold. */
  public static final String WHOLE_INPUT_ROWS = "advisories.whole-input-in-memory.rows";

  /** The defaults: level {@code warn}. */
  public static final AdvisorySettings DEFAULTS =
      new AdvisorySettings(AdvisoryLevel.WARN, 25, 100_000, 16, 0.1, 1_000_000);

  /**
   * Reads and checks the settings of a configuration.
   *
   * @param values the configuration's values
   * @return the settings
   * @throws ConfigurationException naming a key that is unknown or whose value is invalid
   */
  public static AdvisorySettings of(ConfigValues values) {
    Map<String, String> keys = new TreeMap<>(values.withPrefix(LEVEL + "."));
    AdvisorySettings d = DEFAULTS;
    AdvisoryLevel level = d.level;
    String configured = values.get(LEVEL).orElse(null);
    if (configured != null) {
      level = switch (configured.strip().toLowerCase(Locale.ROOT)) {
        case "off" -> AdvisoryLevel.OFF;
        case "warn" -> AdvisoryLevel.WARN;
        case "error" -> AdvisoryLevel.ERROR;
        default -> throw new ConfigurationException("Configuration key '" + LEVEL
            + "' is '" + configured + "'; use off, warn or error");
      };
    }
    int projections = (int) number(keys, PROJECTIONS, d.projections, Integer.MAX_VALUE);
    long collectRows = number(keys, COLLECT_ROWS, d.collectRows, Long.MAX_VALUE);
    int smallFilesMin = (int) number(keys, SMALL_FILES_MIN, d.smallFilesMin, Integer.MAX_VALUE);
    long wholeInputRows = number(keys, WHOLE_INPUT_ROWS, d.wholeInputRows, Long.MAX_VALUE);
    double fraction = d.smallFilesFraction;
    String share = keys.remove(SMALL_FILES_FRACTION);
    if (share != null) {
      try {
        fraction = Double.parseDouble(share.strip());
      } catch (NumberFormatException e) {
        fraction = -1;
      }
      if (!(fraction > 0 && fraction <= 1)) {
        throw new ConfigurationException("Configuration key '" + SMALL_FILES_FRACTION + "' is '" + share
            + "'; give a share of the target file size above 0 and at most 1, such as 0.1");
      }
    }
    if (!keys.isEmpty()) {
      throw new ConfigurationException("Unknown configuration key '" + keys.keySet().iterator().next()
          + "'; advisory keys are " + LEVEL + ", " + PROJECTIONS + ", " + COLLECT_ROWS + ", "
          + SMALL_FILES_MIN + ", " + SMALL_FILES_FRACTION + " and " + WHOLE_INPUT_ROWS);
    }
    return new AdvisorySettings(level, projections, collectRows, smallFilesMin, fraction, wholeInputRows);
  }

  private static long number(Map<String, String> keys, String key, long fallback, long max) {
    String value = keys.remove(key);
    if (value == null) {
      return fallback;
    }
    try {
      long parsed = Long.parseLong(value.strip().replace("_", ""));
      if (parsed > 0 && parsed <= max) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new ConfigurationException("Configuration key '" + key + "' is '" + value + "'; give a whole number "
        + "above 0");
  }

  /**
   * The level for one transform: its annotation's, unless that is {@code DEFAULT}, then the
   * configuration's.
   *
   * @param transform the transform method's annotation, or {@code null}
   * @return {@code OFF}, {@code WARN} or {@code ERROR}
   */
  public AdvisoryLevel levelFor(Transform transform) {
    AdvisoryLevel declared = transform == null ? AdvisoryLevel.DEFAULT : transform.advisories();
    return declared == AdvisoryLevel.DEFAULT ? level : declared;
  }
}
