package dev.transforms.spark;

import dev.transforms.api.TransformFailedException;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.DatasetKind;
import dev.transforms.runtime.spi.TransformRun;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** Turns Spark's errors about a transform's own statements into messages that name what to fix. */
final class Errors {

  private Errors() {}

  /**
   * Explains a failed method when Spark's error alone would not say which output and keys are at
   * fault; otherwise returns the failure as it is.
   *
   * @param run the run that failed
   * @param failure what {@link TransformRun#invoke} threw
   * @return the exception to throw
   */
  static TransformFailedException translate(TransformRun run, TransformFailedException failure) {
    if (isMergeCardinalityViolation(failure)) {
      Optional<TransformsSessionExtensions.MergeStatement> merge = TransformsSessionExtensions.lastMerge();
      String target = merge.map(m -> outputOf(run, m.target())).orElseGet(() -> allOutputs(run));
      String keys = merge.map(m -> " for the ON condition " + m.condition()).orElse("");
      return new TransformFailedException("Transform " + run.spec().name() + " failed: MERGE INTO " + target
          + " matched one target row with several source rows: the source has duplicate keys" + keys
          + ". Deduplicate the source on those keys before merging (dropDuplicates, or a row_number() window "
          + "keeping one row per key). Nothing was published.", failure.getCause());
    }
    Optional<String> variant = variantBeforeVersion3(failure);
    if (variant.isPresent()) {
      return new TransformFailedException("Transform " + run.spec().name() + " failed: " + variant.get()
          + " (Iceberg). A VARIANT column needs an Iceberg table of format version 3, and the table written ("
          + tableOutputs(run) + ") has, or would be created with, an older one. Create a new output at version 3: "
          + "CREATE TABLE ... TBLPROPERTIES ('format-version' = '3') AS SELECT ..., or "
          + "writeTo(identifier()).tableProperty(\"format-version\", \"3\").create(). An existing output is "
          + "upgraded outside the build; a transform may not change its output's format version. Nothing was "
          + "published.", failure.getCause());
    }
    return failure;
  }

  /** Iceberg's words for a variant column in a table of format version 1 or 2, when that is the failure. */
  private static Optional<String> variantBeforeVersion3(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      for (String line : String.valueOf(t.getMessage()).split("\n")) {
        String trimmed = line.trim().replaceFirst("^- ", "");
        if (trimmed.startsWith("Invalid type for ") && trimmed.endsWith("variant is not supported until v3")) {
          return Optional.of(trimmed);
        }
      }
    }
    return Optional.empty();
  }

  private static String tableOutputs(TransformRun run) {
    return run.outputs().stream().filter(o -> o.parameter().kind().orElseThrow() == DatasetKind.TABLE)
        .map(Errors::describe).collect(Collectors.joining(" or "));
  }

  private static boolean isMergeCardinalityViolation(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
      if (message.contains("merge_cardinality_violation")
          || message.contains("matched a single row from the target table with multiple rows of the source")) {
        return true;
      }
    }
    return false;
  }

  private static String outputOf(TransformRun run, List<String> target) {
    for (BoundOutput output : run.outputs()) {
      if (output.parameter().kind().orElseThrow() != DatasetKind.TABLE) {
        continue;
      }
      if (matches(output.resolved(), target)) {
        return describe(output);
      }
    }
    return target.isEmpty() ? allOutputs(run)
        : target.stream().map(ResolvedTable::quote).collect(Collectors.joining("."));
  }

  private static boolean matches(ResolvedTable table, List<String> target) {
    List<String> full = new java.util.ArrayList<>();
    full.add(table.catalog());
    full.addAll(table.namespace());
    full.add(table.table());
    if (target.size() > full.size()) {
      return false;
    }
    List<String> tail = full.subList(full.size() - target.size(), full.size());
    for (int i = 0; i < tail.size(); i++) {
      if (!tail.get(i).equalsIgnoreCase(target.get(i))) {
        return false;
      }
    }
    return !target.isEmpty();
  }

  private static String describe(BoundOutput output) {
    return "output " + output.parameter().requirePath() + " (" + output.resolved().sparkIdentifier() + ")";
  }

  private static String allOutputs(TransformRun run) {
    return run.outputs().stream().map(Errors::describe).collect(Collectors.joining(" or "));
  }
}
