package dev.transforms.architecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;

/**
 * The classes the rules judge: main code only, without the libraries {@code sdk-lineage} shades into its jar
 * under {@code dev.transforms.shaded}.
 */
public final class ProductionClasses implements ImportOption {

  private static final ImportOption NO_TESTS = new ImportOption.DoNotIncludeTests();

  @Override
  public boolean includes(Location location) {
    return NO_TESTS.includes(location) && !location.contains("/dev/transforms/shaded/");
  }
}
