package dev.transforms.runtime.spi;

import dev.transforms.api.AdvisoryException;
import dev.transforms.api.AdvisoryLevel;
import dev.transforms.runtime.Advisory;
import dev.transforms.runtime.AdvisorySettings;
import dev.transforms.runtime.DatasetPath;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The advisories of one run: engines add what they find (from any thread: Spark's listener bus
 * delivers on its own), the runtime logs them, puts them in the report, and under level
 * {@code ERROR} fails the run before anything is published. The same advisory found twice (the same
 * rule, detail and dataset) is kept once.
 */
public final class RunAdvisories {

  private static final Logger LOG = LoggerFactory.getLogger(RunAdvisories.class);

  private final String transform;
  private final AdvisoryLevel level;
  private final AdvisorySettings settings;
  private final Set<Advisory> found = new LinkedHashSet<>();
  private final Set<String> done = new java.util.HashSet<>();
  private int logged;

  /**
   * The advisories of a run.
   *
   * @param transform the transform's name
   * @param level its level: {@code OFF}, {@code WARN} or {@code ERROR}
   * @param settings the thresholds
   */
  public RunAdvisories(String transform, AdvisoryLevel level, AdvisorySettings settings) {
    this.transform = transform;
    this.level = level == AdvisoryLevel.DEFAULT ? settings.level() : level;
    this.settings = settings;
  }

  /**
   * A run that inspects nothing.
   *
   * @param transform the transform's name
   * @return the advisories, always empty
   */
  public static RunAdvisories off(String transform) {
    return new RunAdvisories(transform, AdvisoryLevel.OFF, AdvisorySettings.DEFAULTS);
  }

  /**
   * Whether engines should inspect the run at all.
   *
   * @return {@code false} under level {@code OFF}
   */
  public boolean enabled() {
    return level != AdvisoryLevel.OFF;
  }

  /**
   * The run's level.
   *
   * @return {@code OFF}, {@code WARN} or {@code ERROR}
   */
  public AdvisoryLevel level() {
    return level;
  }

  /**
   * The thresholds.
   *
   * @return the settings
   */
  public AdvisorySettings settings() {
    return settings;
  }

  /**
   * Records an advisory of a rule; ignored under level {@code OFF}.
   *
   * @param rule the rule
   * @param detail what was seen
   * @param dataset the dataset concerned, if known
   */
  public void add(AdvisoryRule rule, String detail, Optional<DatasetPath> dataset) {
    if (enabled()) {
      synchronized (found) {
        found.add(rule.advise(transform, detail, dataset));
      }
    }
  }

  /**
   * Whether an inspection that must run once per run is asked for the first time.
   *
   * @param inspection its name
   * @return {@code true} the first time only
   */
  public synchronized boolean firstTime(String inspection) {
    return done.add(inspection);
  }

  /**
   * What was found so far, in the order found.
   *
   * @return the advisories
   */
  public List<Advisory> list() {
    synchronized (found) {
      return List.copyOf(found);
    }
  }

  /** Logs the advisories not logged yet, at warning level. */
  public void log() {
    List<Advisory> all = list();
    for (int i = logged; i < all.size(); i++) {
      LOG.warn("Transform {}: advisory {}", transform, all.get(i).describe());
    }
    logged = all.size();
  }

  /**
   * Logs the advisories not logged yet, then, under level {@code ERROR}, fails if there is any.
   *
   * @throws AdvisoryException naming every advisory, under level {@code ERROR}
   */
  public void judge() {
    log();
    List<Advisory> all = list();
    if (level == AdvisoryLevel.ERROR && !all.isEmpty()) {
      throw new AdvisoryException("Transform " + transform + " earned " + all.size() + " advisor"
          + (all.size() == 1 ? "y" : "ies") + " under level error, so nothing it wrote is published:\n  - "
          + all.stream().map(Advisory::describe).collect(Collectors.joining("\n  - "))
          + "\nApply the fix, or set advisories = WARN or OFF on @Transform (or advisories=warn in "
          + "transforms.properties) to publish anyway.");
    }
  }

  @Override
  public String toString() {
    return "RunAdvisories[" + transform + ", " + level + ", " + list().size() + " found]";
  }
}
