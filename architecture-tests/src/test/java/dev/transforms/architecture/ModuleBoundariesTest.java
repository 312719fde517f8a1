package dev.transforms.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Modules outside {@code sdk-api} (the engines, the testing kit, the graph, the examples) import no runtime
 * internals and no command line, except the frozen baseline of {@code frozen/}, which can only shrink.
 */
@AnalyzeClasses(packages = "dev.transforms", importOptions = ProductionClasses.class)
class ModuleBoundariesTest {

  @ArchTest
  static void modulesOutsideSdkApiImportNoInternals(JavaClasses classes) {
    ArchRule rule = ArchitectureRules.noInternalImports();
    int remaining = rule.evaluate(classes).getFailureReport().getDetails().size();
    System.out.println("Internal imports outside sdk-api still in the baseline: " + remaining
        + " (class pairs; architecture-tests/src/test/resources/frozen)");
    ArchitectureRules.frozen(rule).check(classes);
  }
}
