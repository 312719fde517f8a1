package dev.transforms.history;

import dev.transforms.api.Incremental;
import dev.transforms.api.ReadMode;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.singlenode.arrow.ArrowRows;
import dev.transforms.singlenode.edits.ApplyChanges;
import java.util.HashSet;
import java.util.Set;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The single-node transforms the histories feed, downstream of {@link #INPUT}: each way of reading an
 * input incrementally, in an {@code @Incremental} variant, and its full twin, the same logic in a plain
 * {@code @Transform} that reads the input's whole current state on every build.
 *
 * <table>
 *   <caption>Variants and twins</caption>
 *   <tr><th>incremental variant</th><th>reads</th><th>full twin</th></tr>
 *   <tr><td>{@code added}</td><td>{@code addedRows()}, appended to the output</td><td>{@code current}</td></tr>
 *   <tr><td>{@code compared}</td><td>{@code CURRENT} rows whose id is not in {@code PREVIOUS}, appended</td>
 *       <td>{@code current}</td></tr>
 *   <tr><td>{@code changes}</td><td>{@code changes()}, written out raw</td><td>{@code changes-full}</td></tr>
 *   <tr><td>{@code scd1}</td><td>{@code ApplyChanges.scd1("id").sequenceBy("seq")}</td><td>{@code scd1-full}</td></tr>
 *   <tr><td>{@code scd2}</td><td>{@code ApplyChanges.scd2("id").sequenceBy("seq")}</td><td>{@code scd2-full}</td></tr>
 * </table>
 *
 * <p>{@code new-ids} is the {@code SnapshotComparison} example's logic, a plain transform whose output
 * depends on when it runs (the rows with ids new since the snapshot its last build read); the test
 * computes what it must hold from the input's snapshots itself. Every variant calls {@link
 * InjectedFailure#afterWriting} once its rows are written, so that a history can fail a build half way.
 */
public class Downstream {

  /** The input every history edits. */
  public static final String INPUT = "/History/input";
  /** {@code added}: the added rows of every build. */
  public static final String ADDED = "/History/added";
  /** {@code compared}: the rows of each build's current snapshot with ids its previous one lacked. */
  public static final String COMPARED = "/History/compared";
  /** {@code changes}: the changes every build read, raw. */
  public static final String CHANGES = "/History/changes";
  /** {@code scd1}: the latest row of each id. */
  public static final String SCD1 = "/History/scd1";
  /** {@code scd2}: every version of each id. */
  public static final String SCD2 = "/History/scd2";
  /** {@code new-ids}: the rows with ids new since the last build. */
  public static final String NEW_IDS = "/History/new-ids";
  /** {@code current}: the input's current rows, the full twin of {@code added} and {@code compared}. */
  public static final String CURRENT = "/History/current";
  /** {@code changes-full}: the changes of the input's whole kept history. */
  public static final String CHANGES_FULL = "/History/changes-full";
  /** {@code scd1-full}: type 1 from the input's whole kept history. */
  public static final String SCD1_FULL = "/History/scd1-full";
  /** {@code scd2-full}: type 2 from the input's whole kept history. */
  public static final String SCD2_FULL = "/History/scd2-full";

  /**
   * Added rows: appended on an incremental build, every row on a full one.
   *
   * @param in the input
   * @param out the output
   */
  @Transform(name = "added")
  @Incremental
  public void added(@TableInput(INPUT) IcebergInput in,
      @TableOutput(value = ADDED, onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) IcebergOutput out) {
    out.writeTable(in.addedRows());
    InjectedFailure.afterWriting("added", in.table());
  }

  /**
   * Snapshot comparison: on an incremental build, the rows of the current snapshot whose id the previous
   * one lacks, appended; on a full build, every current row.
   *
   * @param ctx the context
   * @param in the input
   * @param out the output
   */
  @Transform(name = "compared")
  @Incremental
  public void compared(SingleNodeTransformContext ctx, @TableInput(INPUT) IcebergInput in,
      @TableOutput(value = COMPARED, onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) IcebergOutput out) {
    VectorSchemaRoot current = in.arrow(ReadMode.CURRENT);
    if (!ctx.isIncremental()) {
      out.writeTable(current);
    } else {
      Set<Long> previous = ids(in.arrow(ReadMode.PREVIOUS));
      BigIntVector ids = (BigIntVector) current.getVector("id");
      try (VectorSchemaRoot fresh = ArrowRows.filter(current, row -> !previous.contains(ids.get(row)),
          ctx.allocator())) {
        out.writeTable(fresh);
      }
    }
    InjectedFailure.afterWriting("compared", in.table());
  }

  /**
   * The changes each build read, with their kind and snapshot.
   *
   * @param ctx the context
   * @param in the input
   * @param out the output
   */
  @Transform(name = "changes")
  @Incremental(changes = true)
  public void changes(SingleNodeTransformContext ctx, @TableInput(INPUT) IcebergInput in,
      @TableOutput(value = CHANGES, onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) IcebergOutput out) {
    try (VectorSchemaRoot changes = in.changes().toArrow(ctx.allocator())) {
      out.writeTable(changes);
    }
    InjectedFailure.afterWriting("changes", in.table());
  }

  /**
   * Slowly changing dimension type 1.
   *
   * @param ctx the context
   * @param in the input
   * @param out the output
   */
  @Transform(name = "scd1")
  @Incremental(changes = true)
  public void scd1(SingleNodeTransformContext ctx, @TableInput(INPUT) IcebergInput in,
      @TableOutput(value = SCD1, onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) IcebergOutput out) {
    ApplyChanges.scd1("id").sequenceBy("seq").applyTo(ctx, out, in.changes());
    InjectedFailure.afterWriting("scd1", in.table());
  }

  /**
   * Slowly changing dimension type 2.
   *
   * @param ctx the context
   * @param in the input
   * @param out the output
   */
  @Transform(name = "scd2")
  @Incremental(changes = true)
  public void scd2(SingleNodeTransformContext ctx, @TableInput(INPUT) IcebergInput in,
      @TableOutput(value = SCD2, onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) IcebergOutput out) {
    ApplyChanges.scd2("id").sequenceBy("seq").applyTo(ctx, out, in.changes());
    InjectedFailure.afterWriting("scd2", in.table());
  }

  /**
   * The {@code SnapshotComparison} example: the current rows whose id the snapshot the last build read
   * lacks, or every row when there is none.
   *
   * @param ctx the context
   * @param in the input
   * @param out the output
   */
  @Transform(name = "new-ids")
  public void newIds(SingleNodeTransformContext ctx, @TableInput(INPUT) IcebergInput in,
      @TableOutput(NEW_IDS) IcebergOutput out) {
    VectorSchemaRoot current = in.arrow(ReadMode.CURRENT);
    if (in.previousSnapshotId().isEmpty()) {
      out.writeTable(current);
      return;
    }
    Set<Long> previous = ids(in.arrow(ReadMode.PREVIOUS));
    BigIntVector ids = (BigIntVector) current.getVector("id");
    try (VectorSchemaRoot fresh = ArrowRows.filter(current, row -> !previous.contains(ids.get(row)), ctx.allocator())) {
      out.writeTable(fresh);
    }
  }

  private static Set<Long> ids(VectorSchemaRoot rows) {
    Set<Long> ids = new HashSet<>();
    BigIntVector vector = (BigIntVector) rows.getVector("id");
    for (int row = 0; row < vector.getValueCount(); row++) {
      ids.add(vector.get(row));
    }
    return ids;
  }

  /** The full twins: plain transforms, built in full from the input's current state every time. */
  public static class FullTwins {

    /**
     * Every current row.
     *
     * @param in the input
     * @param out the output
     */
    @Transform(name = "current")
    public void current(@TableInput(INPUT) IcebergInput in, @TableOutput(CURRENT) IcebergOutput out) {
      out.writeTable(in.arrow());
    }

    /**
     * The changes of the whole kept history.
     *
     * @param ctx the context
     * @param in the input
     * @param out the output
     */
    @Transform(name = "changes-full")
    public void changes(SingleNodeTransformContext ctx, @TableInput(INPUT) IcebergInput in,
        @TableOutput(CHANGES_FULL) IcebergOutput out) {
      try (VectorSchemaRoot changes = in.changes().toArrow(ctx.allocator())) {
        out.writeTable(changes);
      }
    }

    /**
     * Type 1 from the whole kept history.
     *
     * @param ctx the context
     * @param in the input
     * @param out the output
     */
    @Transform(name = "scd1-full")
    public void scd1(SingleNodeTransformContext ctx, @TableInput(INPUT) IcebergInput in,
        @TableOutput(SCD1_FULL) IcebergOutput out) {
      ApplyChanges.scd1("id").sequenceBy("seq").applyTo(ctx, out, in.changes());
    }

    /**
     * Type 2 from the whole kept history.
     *
     * @param ctx the context
     * @param in the input
     * @param out the output
     */
    @Transform(name = "scd2-full")
    public void scd2(SingleNodeTransformContext ctx, @TableInput(INPUT) IcebergInput in,
        @TableOutput(SCD2_FULL) IcebergOutput out) {
      ApplyChanges.scd2("id").sequenceBy("seq").applyTo(ctx, out, in.changes());
    }
  }
}
