package dev.transforms.architecture;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The packages of {@code dev.transforms}' main code, in every module, form no import cycle: each package
 * builds only on packages below it (the layers are drawn in {@code docs/architecture.md}).
 */
@AnalyzeClasses(packages = "dev.transforms", importOptions = ProductionClasses.class)
class PackageCyclesTest {

  @ArchTest
  static final ArchRule PACKAGES_FORM_NO_CYCLE = ArchitectureRules.noPackageCycles();
}
