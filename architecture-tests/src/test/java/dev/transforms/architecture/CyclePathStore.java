package dev.transforms.architecture;

import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.freeze.TextFileBasedViolationStore;
import com.tngtech.archunit.library.freeze.ViolationStore;
import java.util.List;
import java.util.Properties;

/**
 * The frozen store of cycles, one line per cycle: the packages it goes through, without the calls that
 * make each step (with them, the store of today's cycles weighs megabytes). {@link SameCycle} matches
 * on the same line.
 */
final class CyclePathStore implements ViolationStore {

  private final ViolationStore files = new TextFileBasedViolationStore();

  @Override
  public void initialize(Properties properties) {
    files.initialize(properties);
  }

  @Override
  public boolean contains(ArchRule rule) {
    return files.contains(rule);
  }

  @Override
  public void save(ArchRule rule, List<String> violations) {
    files.save(rule, violations.stream().map(SameCycle::path).sorted().toList());
  }

  @Override
  public List<String> getViolations(ArchRule rule) {
    return files.getViolations(rule);
  }
}
