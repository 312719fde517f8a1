package dev.transforms.runtime.internal.config;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.config.ConfigValues;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code singlenode.memory-limit} key: the Arrow memory the single-node transforms of a build share,
 * however many run at once ({@code 8g}, {@code 512m}, {@code 40%} of the machine's memory).
 *
 * @param configuredMemory the limit in bytes, or 0 when not set
 */
public record SingleNodeSettings(long configuredMemory) {

  /** The key of the memory limit. */
  public static final String MEMORY_LIMIT = "singlenode.memory-limit";

  private static final Pattern SIZE = Pattern.compile("(\\d{1,7})\\s*(%|k|m|g|t|kb|mb|gb|tb)");

  /**
   * Reads and checks the setting.
   *
   * @param values the configuration's values
   * @return the setting
   * @throws ConfigurationException naming the key and where it was set, for a value that is not a size of
   *     at least 16m
   */
  public static SingleNodeSettings of(ConfigValues values) {
    return new SingleNodeSettings(values.get(MEMORY_LIMIT).map(v -> bytes(v, values.origin(MEMORY_LIMIT))).orElse(0L));
  }

  /**
   * The memory limit: half the machine's memory unless set.
   *
   * @return the limit in bytes
   */
  public long memoryLimit() {
    return configuredMemory > 0 ? configuredMemory : physicalMemory() / 2;
  }

  private static long bytes(String value, String origin) {
    Matcher size = SIZE.matcher(value.strip().toLowerCase(Locale.ROOT));
    if (size.matches()) {
      long amount = Long.parseLong(size.group(1));
      long bytes = switch (size.group(2).substring(0, 1)) {
        case "%" -> amount >= 1 && amount <= 100 ? physicalMemory() / 100 * amount : 0;
        case "k" -> amount << 10;
        case "m" -> amount << 20;
        case "g" -> amount << 30;
        default -> amount << 40;
      };
      if (bytes >= 16L << 20) {
        return bytes;
      }
    }
    throw new ConfigurationException("Configuration key '" + MEMORY_LIMIT + "' (set by " + origin
        + ") must be a size of at least 16m, such as 512m, 8g or 40% (of the machine's memory), not '"
        + value.strip() + "'");
  }

  /** The machine's memory, or 8 GiB where the JVM cannot tell. */
  private static long physicalMemory() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getTotalMemorySize();
    }
    return 8L << 30;
  }
}
