package dev.transforms.singlenode.internal.parquet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.schema.MessageType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.Type;
import org.apache.iceberg.types.Types;

/**
 * What a {@link ParquetRowCursor} reads for each column of its projection: a column of the file, found by
 * field id and decoded into the table's type; the row's position; a lineage column, stored or derived; or
 * a constant of the task. A projection the cursor cannot read (a nested, repeated or unusual column, a
 * column absent from the file, a metadata column Iceberg's reader fills) matches nothing.
 *
 * @param columns the reader of each column of the projection, in its order
 * @param requestedSchema the file's columns read, for the file reader
 * @param fileColumns the readers of the file's columns among {@code columns}
 */
record CursorColumns(CursorColumn[] columns, MessageType requestedSchema, CursorColumn.FileColumn[] fileColumns) {

  /**
   * Matches a projection to a file's columns.
   *
   * @param fileSchema the file's schema
   * @param projection the columns to read, possibly with metadata columns
   * @param constants Iceberg's constants for the task (partition values, lineage, file path)
   * @return the readers; null when the cursor cannot read the projection from this file
   */
  static CursorColumns match(MessageType fileSchema, Schema projection, Map<Integer, ?> constants) {
    List<Types.NestedField> fields = projection.columns();
    CursorColumn[] columns = new CursorColumn[fields.size()];
    List<Type> requestedFields = new ArrayList<>();
    List<CursorColumn.FileColumn> fileColumns = new ArrayList<>();
    for (int i = 0; i < columns.length; i++) {
      Types.NestedField field = fields.get(i);
      int id = field.fieldId();
      Type fileField = fieldWithId(fileSchema, id);
      if (id == MetadataColumns.ROW_POSITION.fieldId()) {
        columns[i] = new CursorColumn.PositionColumn();
      } else if (id == MetadataColumns.ROW_ID.fieldId()
          || id == MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId()) {
        Object base = constants.get(id);
        CursorColumn.FileColumn stored = null;
        if (fileField != null) {
          stored = fileColumn(fileSchema, fileField, field);
          if (stored == null) {
            return null;
          }
          requestedFields.add(fileField);
          fileColumns.add(stored);
        }
        boolean addPosition = id == MetadataColumns.ROW_ID.fieldId();
        columns[i] = new CursorColumn.LineageColumn(stored, (Long) base, addPosition);
      } else if (constants.containsKey(id)) {
        columns[i] = new CursorColumn.ConstantColumn(constants.get(id));
      } else if (MetadataColumns.isMetadataColumn(id) || fileField == null) {
        return null; // Iceberg's reader fills these (defaults, other metadata)
      } else {
        CursorColumn.FileColumn column = fileColumn(fileSchema, fileField, field);
        if (column == null) {
          return null;
        }
        requestedFields.add(fileField);
        fileColumns.add(column);
        columns[i] = column;
      }
    }
    return new CursorColumns(columns, new MessageType(fileSchema.getName(), requestedFields),
        fileColumns.toArray(new CursorColumn.FileColumn[0]));
  }

  private static Type fieldWithId(MessageType fileSchema, int id) {
    for (Type field : fileSchema.getFields()) {
      if (field.getId() != null && field.getId().intValue() == id) {
        return field;
      }
    }
    return null;
  }

  /** A reader of a top-level primitive column, or null when its types are not handled here. */
  private static CursorColumn.FileColumn fileColumn(MessageType fileSchema, Type fileField, Types.NestedField field) {
    if (!fileField.isPrimitive() || fileField.isRepetition(Type.Repetition.REPEATED)) {
      return null;
    }
    ValueDecoder decoder = ValueDecoder.of(fileField.asPrimitiveType(), field.type());
    if (decoder == null) {
      return null;
    }
    ColumnDescriptor descriptor = fileSchema.getColumnDescription(new String[] {fileField.getName()});
    org.apache.iceberg.types.Type.TypeID typeId = field.type().typeId();
    boolean integral =
        typeId == org.apache.iceberg.types.Type.TypeID.LONG
            || typeId == org.apache.iceberg.types.Type.TypeID.INTEGER;
    return new CursorColumn.FileColumn(
        descriptor,
        decoder,
        integral,
        typeId == org.apache.iceberg.types.Type.TypeID.INTEGER,
        typeId == org.apache.iceberg.types.Type.TypeID.STRING);
  }
}
