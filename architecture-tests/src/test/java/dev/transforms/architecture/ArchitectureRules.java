package dev.transforms.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;

/**
 * The rules of the code's shape, as ArchUnit states them. Both hold without exception: no module builds
 * on another's internals, and no package depends on itself through others.
 */
final class ArchitectureRules {

  /**
   * The packages of the modules that must build on published types only. Not {@code dev.transforms.graph}:
   * {@code sdk-graph} is the command line's {@code transforms graph}, a module of its own only to keep the
   * layout library out of {@code sdk-api}, and as internal as the {@code dev.transforms.cli} it extends.
   * Not {@code dev.transforms.benchmarks} either: the benchmarks time the runtime's machinery itself.
   */
  static final String[] OUTSIDE_SDK_API = {
    "dev.transforms.spark..", "dev.transforms.singlenode..", "dev.transforms.testing..", "dev.transforms.examples..",
    "dev.transforms.lineage.."
  };

  /** The runtime's machinery, which no module outside {@code sdk-api} uses. */
  static final String RUNTIME_INTERNAL = "dev.transforms.runtime.internal..";

  /** The command line, which only its front ends outside {@code sdk-api} use. */
  static final String COMMAND_LINE = "dev.transforms.cli..";

  /** The command line's front ends: spark-submit's entry point and the demo, which run it. */
  static final String[] COMMAND_LINE_FRONT_ENDS = {
    "dev.transforms.spark.submit.PipelineMain", "dev.transforms.examples.Demo"
  };

  private ArchitectureRules() {}

  /**
   * Engines, the testing kit and the examples use no runtime internals, and no command line but in its
   * front ends ({@code sdk-api}'s own classes may).
   *
   * @return the rule
   */
  static ArchRule noInternalImports() {
    ArchRule runtime = classes().that().resideInAnyPackage(OUTSIDE_SDK_API)
        .should(new InternalImports(RUNTIME_INTERNAL))
        .as("modules outside sdk-api import no dev.transforms.runtime.internal class")
        .because("internal packages may change in any release; engines build on dev.transforms.runtime.spi");
    ArchRule commandLine = classes().that().resideInAnyPackage(OUTSIDE_SDK_API)
        .and().doNotHaveFullyQualifiedName(COMMAND_LINE_FRONT_ENDS[0])
        .and().doNotHaveFullyQualifiedName(COMMAND_LINE_FRONT_ENDS[1])
        .should(new InternalImports(COMMAND_LINE))
        .as("modules outside sdk-api import no dev.transforms.cli class, but the command line's front ends")
        .because("the command line is run, not built on");
    return CompositeArchRule.of(runtime).and(commandLine);
  }

  /**
   * No package of {@code dev.transforms} depends on itself through others.
   *
   * @return the rule
   */
  static ArchRule noPackageCycles() {
    return slices().matching("dev.transforms.(**)").should().beFreeOfCycles()
        .as("packages of dev.transforms form no import cycle");
  }
}
