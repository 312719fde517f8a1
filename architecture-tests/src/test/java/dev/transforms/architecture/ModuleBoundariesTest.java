package dev.transforms.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;

/**
 * Modules outside {@code sdk-api} (the engines, the testing kit, the examples) import no runtime internals,
 * and no command line but in its front ends; no published signature names an internal type. Any breach
 * fails the build.
 */
@AnalyzeClasses(packages = "dev.transforms", importOptions = ProductionClasses.class)
class ModuleBoundariesTest {

  @ArchTest
  static void modulesOutsideSdkApiImportNoInternals(JavaClasses classes) {
    ArchitectureRules.noInternalImports().check(classes);
  }

  @ArchTest
  static void publishedSignaturesNameNoInternalType(JavaClasses classes) {
    ArchitectureRules.noInternalTypesInPublishedSignatures().check(classes);
  }
}
