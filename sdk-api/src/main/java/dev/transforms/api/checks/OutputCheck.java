package dev.transforms.api.checks;

/**
 * A data expectation written in Java, declared on an output with {@link Check}. The runtime creates
 * the class with its public no-argument constructor and calls {@link #check} once per build, after the
 * transform returned and before the output is published.
 *
 * <pre>{@code
 * public class NoFutureOrders implements OutputCheck {
 *   public CheckOutcome check(CheckContext context) throws IOException {
 *     long future = 0;
 *     List<String> examples = new ArrayList<>();
 *     try (CloseableIterable<Record> rows = IcebergGenerics.read(context.table())
 *         .useSnapshot(context.snapshotId()).build()) {
 *       for (Record row : rows) {
 *         if (((LocalDate) row.getField("ordered_on")).isAfter(LocalDate.now())) {
 *           future++;
 *           if (examples.size() < 10) {
 *             examples.add(row.toString());
 *           }
 *         }
 *       }
 *     }
 *     return future == 0 ? CheckOutcome.pass() : CheckOutcome.fail(future, examples, "orders dated in the future");
 *   }
 * }
 * }</pre>
 */
@FunctionalInterface
public interface OutputCheck {

  /**
   * Checks what the transform staged.
   *
   * @param context the staged output: its table and the snapshot holding what the transform wrote
   * @return whether the rows meet the expectation, and if not, how many violate it and a few examples
   * @throws Exception any failure to check; the check then counts as failed
   */
  CheckOutcome check(CheckContext context) throws Exception;
}
