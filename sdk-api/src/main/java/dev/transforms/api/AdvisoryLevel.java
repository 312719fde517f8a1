package dev.transforms.api;

/**
 * What the runtime does with the advisories a transform earns while it runs: patterns of the review
 * guide (a {@code withColumn} loop, a cartesian product, a v1 write into Iceberg...) that it finds in
 * what the transform executed. Set for every transform with {@code advisories=off|warn|error} in
 * {@code transforms.properties}, and for one transform with {@link Transform#advisories()}.
 */
public enum AdvisoryLevel {
  /** Follow the configuration's {@code advisories} key ({@code warn} when it is not set). */
  DEFAULT,
  /** Inspect nothing: no listener, no plan walk, no cost. */
  OFF,
  /** Log each advisory and list it in the build report; the transform is published as usual. */
  WARN,
  /**
   * Fail the transform when it earns an advisory: nothing it wrote is published (as with a failed
   * expectation), and the error names every advisory.
   */
  ERROR
}
