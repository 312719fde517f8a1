package dev.transforms.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A history of the input table: how it is made ({@link Setup}) and the steps that follow, builds among
 * them. Made from a seed by {@link #random}; the same seed always gives the same history.
 *
 * @param seed the seed it was made from
 * @param setup the input's format, write mode and first rows
 * @param steps the steps; the first builds, and so does the last
 * @param spark whether builds include the Spark transforms
 */
record History(long seed, Setup setup, List<Step> steps, boolean spark, boolean killed) {

  /**
   * How the input table is made.
   *
   * @param formatVersion Iceberg format version, 2 or 3
   * @param writeMode {@code copy-on-write} or {@code merge-on-read}, for updates, deletes and merges
   * @param equalityDeletes whether merge-on-read edits write equality deletes (on {@code id}) instead of
   *     position deletes or deletion vectors
   * @param partitioned whether the table is partitioned by {@code bucket(2, id)}
   * @param rows how many rows it starts with
   */
  record Setup(int formatVersion, String writeMode, boolean equalityDeletes, boolean partitioned, int rows) {

    /** The set-up in words. */
    String describe() {
      String deletes = writeMode.equals("copy-on-write") ? "copy-on-write"
          : equalityDeletes ? "merge-on-read with equality deletes"
          : formatVersion == 3 ? "merge-on-read with deletion vectors" : "merge-on-read with position deletes";
      return "format v" + formatVersion + ", " + deletes + (partitioned ? ", partitioned by bucket(2, id)" : "")
          + ", " + rows + " rows";
    }
  }

  /** The variants a failing build can make fail. */
  static final List<String> VARIANTS = List.of("added", "compared", "changes", "scd1", "scd2");

  /**
   * A random history.
   *
   * @param seed the seed
   * @param spark whether builds include the Spark transforms (such histories are shorter: each Spark build
   *     costs seconds)
   * @param killed whether one build, after an edit, is killed half way (in a JVM of its own)
   * @return the history
   */
  static History random(long seed, boolean spark, boolean killed) {
    Random random = new Random(seed);
    boolean mergeOnRead = random.nextBoolean();
    Setup setup = new Setup(random.nextBoolean() ? 2 : 3, mergeOnRead ? "merge-on-read" : "copy-on-write",
        mergeOnRead && random.nextInt(3) == 0, random.nextInt(4) == 0, 2 + random.nextInt(4));
    List<Step> steps = new ArrayList<>();
    steps.add(new Step.Build());
    int edits = spark ? 3 + random.nextInt(2) : 3 + random.nextInt(5);
    for (int i = 0; i < edits; i++) {
      // Spark histories are short: every other edit appends, so that their added-rows builds can be incremental.
      Step step = spark && i % 2 == 1 ? new Step.Append(1 + random.nextInt(2)) : edit(random);
      steps.add(step);
      if (step instanceof Step.Compact && random.nextBoolean()) {
        steps.add(new Step.ExpireAllButCurrent());
      }
      if (i < edits - 1 && random.nextInt(spark ? 3 : 5) < 2) {
        steps.add(random.nextInt(5) == 0 ? new Step.FailingBuild(VARIANTS.get(random.nextInt(VARIANTS.size())))
            : new Step.Build());
      }
    }
    if (killed) {
      // After an append, so that the killed build has something to build.
      int at = 1 + random.nextInt(steps.size());
      steps.add(at, new Step.Append(1));
      steps.add(at + 1, new Step.KilledBuild());
    }
    steps.add(new Step.Build());
    return new History(seed, setup, List.copyOf(steps), spark, killed);
  }

  /** One edit, maintenance or schema step, by weight. */
  private static Step edit(Random random) {
    List<Integer> picks = IntStream.range(0, 1 + random.nextInt(2)).mapToObj(i -> random.nextInt(100)).toList();
    List<Supplier<Step>> weighted = new ArrayList<>();
    add(weighted, 18, () -> new Step.Append(1 + random.nextInt(3)));
    add(weighted, 18, () -> new Step.Upsert(picks, random.nextInt(2)));
    add(weighted, 4, () -> new Step.LateUpsert(random.nextInt(100)));
    add(weighted, 10, () -> new Step.Delete(picks));
    add(weighted, 6, () -> new Step.Overwrite(random.nextInt(100)));
    add(weighted, 8, Step.Compact::new);
    add(weighted, 3, Step.ExpireAllButCurrent::new);
    add(weighted, 5, Step.ExpireLastRead::new);
    add(weighted, 4, Step.ExpireBeforeLastRead::new);
    add(weighted, 6, () -> new Step.Rollback(1 + random.nextInt(2)));
    add(weighted, 4, Step.AddColumn::new);
    add(weighted, 2, Step.RenameColumn::new);
    add(weighted, 2, Step.DropColumn::new);
    return weighted.get(random.nextInt(weighted.size())).get();
  }

  private static void add(List<Supplier<Step>> weighted, int weight, Supplier<Step> step) {
    for (int i = 0; i < weight; i++) {
      weighted.add(step);
    }
  }

  /**
   * The same set-up with other steps.
   *
   * @param others the steps
   * @return the history
   */
  History withSteps(List<Step> others) {
    return new History(seed, setup, List.copyOf(others), spark, killed);
  }

  /** What kind of history it is, for messages: {@code seed 7 (with Spark builds)}. */
  String name() {
    return "seed " + seed + (spark ? " (with Spark builds)" : "") + (killed ? " (with a killed build)" : "");
  }

  /** The history as the seed made it, one step a line. */
  String describe() {
    return name() + ": " + setup.describe() + "\n"
        + IntStream.range(0, steps.size()).mapToObj(i -> "  " + (i + 1) + ". " + steps.get(i).words())
            .collect(Collectors.joining("\n"));
  }
}
