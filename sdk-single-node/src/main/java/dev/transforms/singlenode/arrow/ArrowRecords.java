package dev.transforms.singlenode.arrow;

import dev.transforms.api.SchemaMismatchException;
import dev.transforms.singlenode.internal.schema.ArrowSchemaMapping;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;

/**
 * Converts between Arrow rows and Iceberg generic {@link Record}s, for code that edits rows one by
 * one.
 *
 * <p>Values follow Iceberg's generic data model: {@code Integer}, {@code Long}, {@code BigDecimal},
 * {@code LocalDate}, {@code LocalTime}, {@code LocalDateTime} ({@code timestamp}), {@code
 * OffsetDateTime} in UTC ({@code timestamptz}), {@code String}, {@code UUID}, {@code byte[]}
 * ({@code fixed}), {@code ByteBuffer} ({@code binary}), {@link Record} (struct), {@code List} and
 * {@code Map}; see {@code docs/arrow-types.md}.
 *
 * <p>Memory: {@link #toRecords} only reads the root, which stays the caller's; the records hold no
 * Arrow memory. {@link #toRoot} allocates a new root from the given allocator and hands it to the
 * caller, who must close it.
 */
public final class ArrowRecords {
  private ArrowRecords() {}

  /**
   * Reads every row of a root as a record of an Iceberg schema. Columns are matched by name; an
   * optional column missing from the root reads as null.
   *
   * @param root the Arrow rows; not closed or changed
   * @param schema the Iceberg schema of the records
   * @return one new record per row, in row order
   * @throws SchemaMismatchException if the root cannot hold the schema's values, listing every
   *     differing column (see {@link ArrowSchemas#differences})
   */
  public static List<Record> toRecords(VectorSchemaRoot root, Schema schema) {
    ArrowValueReaders.RowReader reader = rowReader(root, schema);
    int rowCount = root.getRowCount();
    List<Record> records = new ArrayList<>(rowCount);
    for (int row = 0; row < rowCount; row++) {
      records.add(reader.read(row));
    }
    return records;
  }

  /**
   * Reads some rows of a root as records of an Iceberg schema, checking the schema once.
   *
   * @param root the Arrow rows; not closed or changed
   * @param schema the Iceberg schema of the records
   * @param rows the row indexes, each from 0 to {@code root.getRowCount() - 1}
   * @return one new record per index, in the order of {@code rows}
   * @throws SchemaMismatchException if the root cannot hold the schema's values
   * @throws IndexOutOfBoundsException if a row index is out of range
   */
  public static List<Record> toRecords(VectorSchemaRoot root, Schema schema, int[] rows) {
    ArrowValueReaders.RowReader reader = rowReader(root, schema);
    List<Record> records = new ArrayList<>(rows.length);
    for (int row : rows) {
      if (row < 0 || row >= root.getRowCount()) {
        throw new IndexOutOfBoundsException(
            "Row " + row + " is out of range; the root has " + root.getRowCount() + " rows");
      }
      records.add(reader.read(row));
    }
    return records;
  }

  /**
   * Reads one row of a root as a record of an Iceberg schema. For many rows, prefer {@link
   * #toRecords}, which checks the schema once.
   *
   * @param root the Arrow rows; not closed or changed
   * @param schema the Iceberg schema of the record
   * @param row the row index, from 0 to {@code root.getRowCount() - 1}
   * @return a new record
   * @throws SchemaMismatchException if the root cannot hold the schema's values
   * @throws IndexOutOfBoundsException if the row index is out of range
   */
  public static Record toRecord(VectorSchemaRoot root, Schema schema, int row) {
    if (row < 0 || row >= root.getRowCount()) {
      throw new IndexOutOfBoundsException(
          "Row " + row + " is out of range; the root has " + root.getRowCount() + " rows");
    }
    return rowReader(root, schema).read(row);
  }

  /**
   * Writes records into a new root laid out by {@link ArrowSchemas#toArrow(Schema)}.
   *
   * @param records records of {@code schema}, in row order
   * @param schema the Iceberg schema of the records
   * @param allocator the allocator for the new root's memory
   * @return a new root holding the records; the caller owns it and must close it
   * @throws dev.transforms.api.UnsupportedTypeException if the schema has a type without an Arrow counterpart
   * @throws ClassCastException if a value is not of the Java class the generic data model uses
   */
  public static VectorSchemaRoot toRoot(
      Iterable<? extends Record> records, Schema schema, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(schema), allocator);
    try {
      root.allocateNew();
      ArrowValueWriters.RowWriter writer =
          new ArrowValueWriters.RowWriter(root, schema.asStruct(), schema.asStruct());
      int row = 0;
      for (Record record : records) {
        writer.write(row, record);
        row += 1;
      }
      root.setRowCount(row);
      return root;
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }

  static ArrowValueReaders.RowReader rowReader(VectorSchemaRoot root, Schema schema) {
    ArrowSchemaMapping.checkReadable(schema, root.getSchema());
    Map<String, FieldVector> byName = new HashMap<>();
    for (FieldVector vector : root.getFieldVectors()) {
      byName.put(vector.getName(), vector);
    }
    return new ArrowValueReaders.RowReader(schema.asStruct(), byName);
  }
}
