package dev.transforms.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;

/**
 * The rules of the code's shape, as ArchUnit states them: no module builds on another's internals, no
 * published signature names an internal type, and no package depends on itself through others.
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

  /**
   * Every internal package of every module, as {@code docs/architecture.md} lists them: what no published
   * signature may name.
   */
  static final String[] INTERNAL = {
    "..internal..", COMMAND_LINE, "dev.transforms.graph..", "dev.transforms.lineage..", "dev.transforms.spark.submit.."
  };

  /**
   * The packages whose signatures are not published: the internal ones and what only runs (the examples, the
   * benchmarks). Every other package's are.
   */
  static final String[] UNPUBLISHED = {
    "..internal..", COMMAND_LINE, "dev.transforms.graph..", "dev.transforms.lineage..", "dev.transforms.spark.submit..",
    "dev.transforms.examples..", "dev.transforms.benchmarks..", "dev.transforms.architecture.."
  };

  /**
   * The published members allowed to name an internal type: the single-node hooks through which tests and
   * benchmarks give a planner of their own (to force a strategy or count choices). Their Javadoc says the
   * planner is internal and may change in any release.
   */
  static final java.util.Set<String> INTERNAL_IN_SIGNATURE_ALLOWED = java.util.Set.of(
      "dev.transforms.singlenode.edits.RowEdits.withPlanner",
      "dev.transforms.singlenode.arrow.ArrowTableReader.withPlanner");

  private ArchitectureRules() {}

  /**
   * Published classes name no internal type in their public and protected signatures: what a user or an
   * engine can call, extend or receive is published too.
   *
   * @return the rule
   */
  static ArchRule noInternalTypesInPublishedSignatures() {
    return classes().that().resideOutsideOfPackages(UNPUBLISHED)
        .should(new InternalTypesInSignatures(INTERNAL_IN_SIGNATURE_ALLOWED, INTERNAL))
        .as("published classes name no internal type in a public or protected signature")
        .because("a caller can reach what a published signature names, and internal packages may change in "
            + "any release");
  }

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
