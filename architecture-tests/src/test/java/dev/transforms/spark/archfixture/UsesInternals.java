package dev.transforms.spark.archfixture;

import dev.transforms.runtime.internal.catalog.Catalogs;

/** A class in an engine's package that uses a runtime internal: what the boundary rule must report. */
public final class UsesInternals {

  /**
   * Names an internal type.
   *
   * @return the internal type's name
   */
  public String internalName() {
    return Catalogs.class.getName();
  }
}
