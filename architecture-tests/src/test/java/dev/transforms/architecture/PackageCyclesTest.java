package dev.transforms.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The packages of {@code dev.transforms}' main code form no import cycle beyond the frozen baseline of
 * {@code frozen/}, which can only shrink. Cycles are matched by the packages they go through.
 */
@AnalyzeClasses(packages = "dev.transforms", importOptions = ProductionClasses.class)
class PackageCyclesTest {

  @ArchTest
  static void packagesFormNoNewCycle(JavaClasses classes) {
    ArchRule rule = ArchitectureRules.noPackageCycles();
    int cycles = rule.evaluate(classes).getFailureReport().getDetails().size();
    System.out.println("Package cycles still in the baseline: " + cycles
        + " (architecture-tests/src/test/resources/frozen)");
    int limit = Integer.parseInt(ArchConfiguration.get().getProperty("cycles.maxNumberToDetect"));
    // A new dependency inside today's tangle adds hundreds of cycles at once; past the limit ArchUnit stops looking.
    assertThat(cycles).as("package cycles (a new dependency closed new ones; ArchUnit stops at %d)", limit)
        .isLessThan(limit);
    ArchitectureRules.frozen(rule).persistIn(new CyclePathStore()).associateViolationLinesVia(new SameCycle())
        .check(classes);
  }
}
