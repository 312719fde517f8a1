package dev.transforms.testing.archfixture;

import dev.transforms.runtime.internal.catalog.Catalogs;
import java.util.List;
import java.util.Optional;

/**
 * A published class of the testing kit whose signatures name an internal type, in a result's type argument
 * and in a parameter: what the rule on published signatures must report. Its private member may.
 */
public final class ReturnsInternalType {

  /**
   * Names an internal type in a type argument.
   *
   * @return nothing
   */
  public Optional<Catalogs> catalogs() {
    return Optional.empty();
  }

  /**
   * Names an internal type in a parameter.
   *
   * @param catalogs ignored
   */
  public void use(List<Catalogs> catalogs) {
    hidden(null);
  }

  private static Catalogs hidden(Catalogs catalogs) {
    return catalogs;
  }
}
