package dev.transforms.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.freeze.FreezingArchRule;

/**
 * The rules of the code's shape, each as ArchUnit states it and as it is frozen: today's violations are
 * stored under {@code src/test/resources/frozen} and pass; any other fails, and a stored one that is gone
 * is removed from the store by the run that no longer finds it, so the baseline only shrinks.
 */
final class ArchitectureRules {

  /** The packages of the modules that must build on published types only. */
  static final String[] OUTSIDE_SDK_API = {
    "dev.transforms.spark..", "dev.transforms.singlenode..", "dev.transforms.testing..",
    "dev.transforms.graph..", "dev.transforms.examples.."
  };

  /** What those modules must not use: the runtime's machinery and the command line. */
  static final String[] INTERNAL = {"dev.transforms.runtime.internal..", "dev.transforms.cli.."};

  private ArchitectureRules() {}

  /**
   * Engines, the testing kit, the graph and the examples use no runtime internals and no command line
   * ({@code sdk-api}'s own classes may).
   *
   * @return the rule, not frozen
   */
  static ArchRule noInternalImports() {
    return classes().that().resideInAnyPackage(OUTSIDE_SDK_API)
        .should(new InternalImports(INTERNAL))
        .as("modules outside sdk-api import no dev.transforms.runtime.internal or dev.transforms.cli class")
        .because("internal packages may change in any release; engines build on dev.transforms.runtime.spi");
  }

  /**
   * No package of {@code dev.transforms} depends on itself through others.
   *
   * @return the rule, not frozen
   */
  static ArchRule noPackageCycles() {
    return slices().matching("dev.transforms.(**)").should().beFreeOfCycles()
        .as("packages of dev.transforms form no import cycle");
  }

  /**
   * A rule as the build checks it: today's violations allowed, no other.
   *
   * @param rule the rule
   * @return the rule, frozen against the store
   */
  static FreezingArchRule frozen(ArchRule rule) {
    return FreezingArchRule.freeze(rule);
  }
}
