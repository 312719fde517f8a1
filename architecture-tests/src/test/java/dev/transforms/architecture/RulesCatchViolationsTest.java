package dev.transforms.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.transforms.architecture.cycle.first.First;
import dev.transforms.architecture.cycle.second.Second;
import dev.transforms.spark.archfixture.UsesInternals;
import dev.transforms.testing.archfixture.ReturnsInternalType;
import dev.transforms.testing.archfixture.UsesCommandLine;
import org.junit.jupiter.api.Test;

/** The rules fail on what they forbid: each is run on a small class that breaks it. */
class RulesCatchViolationsTest {

  @Test
  void anEngineClassThatUsesARuntimeInternalIsReported() {
    JavaClasses fixture = new ClassFileImporter().importClasses(UsesInternals.class);

    EvaluationResult result = ArchitectureRules.noInternalImports().evaluate(fixture);

    assertThat(result.getFailureReport().getDetails()).containsExactly(
        "dev.transforms.spark.archfixture.UsesInternals imports dev.transforms.runtime.internal.catalog.Catalogs");
  }

  @Test
  void aTestingKitClassThatUsesTheCommandLineIsReported() {
    JavaClasses fixture = new ClassFileImporter().importClasses(UsesCommandLine.class);

    EvaluationResult result = ArchitectureRules.noInternalImports().evaluate(fixture);

    assertThat(result.getFailureReport().getDetails()).containsExactly(
        "dev.transforms.testing.archfixture.UsesCommandLine imports dev.transforms.cli.TransformsCli");
  }

  @Test
  void aPublishedSignatureThatNamesAnInternalTypeIsReported() {
    JavaClasses fixture = new ClassFileImporter().importClasses(ReturnsInternalType.class);

    EvaluationResult result = ArchitectureRules.noInternalTypesInPublishedSignatures().evaluate(fixture);

    String catalogs = "dev.transforms.runtime.internal.catalog.Catalogs";
    assertThat(result.getFailureReport().getDetails()).containsExactlyInAnyOrder(
        "dev.transforms.testing.archfixture.ReturnsInternalType.catalogs names " + catalogs,
        "dev.transforms.testing.archfixture.ReturnsInternalType.use names " + catalogs);
  }

  @Test
  void twoPackagesThatImportEachOtherAreACycle() {
    JavaClasses fixture = new ClassFileImporter().importClasses(First.class, Second.class);

    EvaluationResult result = ArchitectureRules.noPackageCycles().evaluate(fixture);

    assertThat(result.getFailureReport().getDetails()).singleElement().asString()
        .contains("Slice architecture.cycle.first").contains("Slice architecture.cycle.second");
  }
}
