package dev.transforms.runtime;

import java.util.Objects;
import java.util.Optional;

/**
 * A pattern of the review guide that a transform was seen doing while it ran, with the reason it is a
 * risk and the fix. The engines inspect what each transform executed (on Spark: the plans of its
 * queries and writes, the jobs it started; on a single node: how it read its inputs) unless its
 * advisory level is {@code off}; see {@link dev.transforms.api.AdvisoryLevel}.
 *
 * @param transform the transform that earned it
 * @param rule the rule's identifier, such as {@code withcolumn-loop}; stable, for searches and docs
 * @param reason why the pattern is a risk, in one sentence
 * @param fix what to do instead
 * @param detail what was seen, with numbers where there are some ({@code 31 projections in a row});
 *     empty when the rule has nothing to add
 * @param dataset the input or output dataset it concerns, when one is known
 */
public record Advisory(String transform, String rule, String reason, String fix, String detail,
    Optional<DatasetPath> dataset) {

  /**
   * Checks that nothing is null.
   *
   * @param transform the transform
   * @param rule the rule's identifier
   * @param reason the reason
   * @param fix the fix
   * @param detail what was seen
   * @param dataset the dataset concerned
   */
  public Advisory {
    Objects.requireNonNull(transform, "transform");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(fix, "fix");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(dataset, "dataset");
  }

  /**
   * One line for reports and logs: the rule, the dataset, what was seen, why, and the fix.
   *
   * @return the line
   */
  public String describe() {
    return "[" + rule + "]" + dataset.map(d -> " " + d).orElse("") + (detail.isEmpty() ? "" : " " + detail + ".")
        + " " + reason + " Fix: " + fix;
  }
}
