package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.PageReadStore;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.io.api.Binary;
import org.apache.iceberg.shaded.org.apache.parquet.schema.MessageType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.iceberg.shaded.org.apache.parquet.schema.Type;

/**
 * Reads the positions a Parquet position delete file deletes from one data file, with this
 * package's decoder and the shared read options: no Hadoop {@code Configuration} is built per file,
 * no record is made per row, and only the {@code file_path} and {@code pos} columns are read (the
 * optional deleted {@code row} is never decoded).
 *
 * <p>{@link #read} returns false, having reported nothing, for a file it cannot read this way (its
 * two columns missing, without field ids, or of other types); the caller then reads it with
 * Iceberg's reader.
 */
public final class PositionDeleteReader {
  private PositionDeleteReader() {}

  /**
   * Reports every position of {@code dataLocation} that a position delete file deletes.
   *
   * @param deleteFile the position delete file (Parquet, not encrypted)
   * @param dataLocation the data file's location, as written in the {@code file_path} column
   * @param onlyThisDataFile whether the delete file is known to hold deletes of this data file
   *     only (a file-scoped delete file), so that its {@code file_path} column need not be read
   * @param deleted receives each deleted position, in the file's order
   * @return whether the file was read; false when Iceberg's reader must read it
   * @throws UncheckedIOException if the file cannot be read
   */
  public static boolean read(
      InputFile deleteFile, String dataLocation, boolean onlyThisDataFile, LongConsumer deleted) {
    ParquetFileReader reader;
    try {
      reader =
          ParquetFileReader.open(new IcebergParquetFile(deleteFile), ParquetRowCursor.OPTIONS);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open the position delete file " + deleteFile.location(), e);
    }
    try (ParquetFileReader closing = reader) {
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      Type path = column(schema, MetadataColumns.DELETE_FILE_PATH.fieldId(), PrimitiveTypeName.BINARY);
      Type pos = column(schema, MetadataColumns.DELETE_FILE_POS.fieldId(), PrimitiveTypeName.INT64);
      if (path == null || pos == null) {
        return false;
      }
      List<Type> requested = new ArrayList<>();
      if (!onlyThisDataFile) {
        requested.add(path);
      }
      requested.add(pos);
      reader.setRequestedSchema(new MessageType(schema.getName(), requested));
      ColumnDescriptor pathColumn = schema.getColumnDescription(new String[] {path.getName()});
      ColumnDescriptor posColumn = schema.getColumnDescription(new String[] {pos.getName()});
      Binary wanted = Binary.fromConstantByteArray(dataLocation.getBytes(StandardCharsets.UTF_8));
      String where = deleteFile.location();
      PageReadStore group;
      while ((group = reader.readNextRowGroup()) != null) {
        long rows = group.getRowCount();
        ParquetColumnValues paths =
            onlyThisDataFile
                ? null
                : new ParquetColumnValues(pathColumn, group.getPageReader(pathColumn), where);
        ParquetColumnValues positions =
            new ParquetColumnValues(posColumn, group.getPageReader(posColumn), where);
        for (long row = 0; row < rows; row++) {
          boolean matches = paths == null || (paths.advance(1) && wanted.equals(paths.getBinary()));
          if (positions.advance(1) && matches) {
            deleted.accept(positions.getLong());
          }
        }
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read the position delete file " + deleteFile.location(), e);
    }
  }

  /** The top-level primitive column with this field id and physical type, or null. */
  private static Type column(MessageType schema, int fieldId, PrimitiveTypeName physical) {
    for (Type field : schema.getFields()) {
      if (field.getId() != null && field.getId().intValue() == fieldId) {
        boolean fits = field.isPrimitive()
            && !field.isRepetition(Type.Repetition.REPEATED)
            && field.asPrimitiveType().getPrimitiveTypeName() == physical;
        return fits ? field : null;
      }
    }
    return null;
  }
}
