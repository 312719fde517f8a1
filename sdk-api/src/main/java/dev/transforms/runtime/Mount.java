package dev.transforms.runtime;

import java.util.List;

/**
 * Places the datasets under a path prefix into one catalog and namespace.
 *
 * <p>With {@code mount./Examples=prod:analytics}, the path {@code /Examples/iceberg/row-updates}
 * becomes table {@code row-updates} in namespace {@code analytics.iceberg} of catalog {@code prod}.
 *
 * @param prefix the path prefix, {@code /} or a dataset path
 * @param catalog the catalog name
 * @param namespace namespace levels put in front of the path's own, possibly none
 */
public record Mount(String prefix, String catalog, List<String> namespace) {

  /**
   * Copies the namespace so the mount stays immutable.
   *
   * @param prefix the path prefix
   * @param catalog the catalog name
   * @param namespace the namespace levels
   */
  public Mount {
    namespace = List.copyOf(namespace);
  }

  /**
   * The number of path segments the prefix spans ({@code /} spans none).
   *
   * @return the prefix depth
   */
  public int depth() {
    return prefix.equals("/") ? 0 : prefix.substring(1).split("/").length;
  }
}
