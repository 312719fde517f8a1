package dev.transforms.singlenode.internal.read;

import dev.transforms.singlenode.internal.parquet.PositionDeleteReader;
import dev.transforms.singlenode.internal.threads.CallerRunsExecutor;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.DeleteLoader;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.Deletes;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteIndexUtil;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.StructLikeSet;
import org.apache.iceberg.util.ThreadPools;

/**
 * Iceberg's delete filter for generic records, loading a data file's few delete files in the calling
 * thread instead of through the shared delete worker pool, whose 10 ms polling dominates when there
 * is little to load (see {@link CallerRunsExecutor}). Many delete files still load in parallel.
 *
 * <p>Parquet position delete files are read with the engine's own {@link PositionDeleteReader}
 * (see {@link EngineDeleteLoader}); deletion vectors and equality deletes with Iceberg's loader.
 *
 * <p>It takes the data file's path and delete files rather than a {@code FileScanTask}, so that the
 * changelog's tasks, which are not file scan tasks, are read the same way.
 */
final class LocalDeleteFilter extends DeleteFilter<Record> {
  /** Up to this many delete files per data file are loaded in the calling thread. */
  private static final int MAX_DELETE_FILES_IN_CALLER = 8;

  private final FileIO io;
  private final boolean inCaller;
  private final InternalRecordWrapper asStructLike;
  private final int positionIndex;

  /**
   * A filter of a data file's deletes for rows read with the requested schema.
   *
   * @param io where the delete files are read from
   * @param deletes the delete files that apply to it
   * @param tableSchema the table's schema, in which equality deletes find their columns
   * @param requestedSchema the columns the caller wants; {@link #requiredSchema()} adds those the
   *     deletes need
   */
  LocalDeleteFilter(
      FileIO io, String dataFile, List<DeleteFile> deletes, Schema tableSchema, Schema requestedSchema) {
    super(dataFile, deletes, tableSchema, requestedSchema);
    this.io = io;
    this.inCaller = deletes.size() <= MAX_DELETE_FILES_IN_CALLER;
    this.asStructLike = new InternalRecordWrapper(requiredSchema().asStruct());
    this.positionIndex = indexOf(requiredSchema(), MetadataColumns.ROW_POSITION.fieldId());
  }

  /** The position of a top-level field in the schema, or -1. */
  static int indexOf(Schema schema, int fieldId) {
    List<Types.NestedField> columns = schema.columns();
    for (int i = 0; i < columns.size(); i += 1) {
      if (columns.get(i).fieldId() == fieldId) {
        return i;
      }
    }
    return -1;
  }

  @Override
  protected long pos(Record record) {
    return (Long) record.get(positionIndex);
  }

  @Override
  protected StructLike asStructLike(Record record) {
    return asStructLike.wrap(record);
  }

  @Override
  protected InputFile getInputFile(String location) {
    return io.newInputFile(location);
  }

  @Override
  protected DeleteLoader newDeleteLoader() {
    return new EngineDeleteLoader(
        new BaseDeleteLoader(
            this::loadInputFile,
            inCaller ? CallerRunsExecutor.INSTANCE : ThreadPools.getDeleteWorkerPool()));
  }

  /**
   * Loads Parquet position delete files with the engine's {@link PositionDeleteReader}, which builds
   * no Hadoop {@code Configuration} and no record per file; deletion vectors, equality deletes and
   * any file that reader cannot read go to Iceberg's loader. The index it returns is what Iceberg's
   * loader returns for the same files: the same positions, and the delete files it came from.
   */
  private final class EngineDeleteLoader implements DeleteLoader {
    private final DeleteLoader iceberg;

    private EngineDeleteLoader(DeleteLoader iceberg) {
      this.iceberg = iceberg;
    }

    @Override
    public StructLikeSet loadEqualityDeletes(Iterable<DeleteFile> deleteFiles, Schema projection) {
      return iceberg.loadEqualityDeletes(deleteFiles, projection);
    }

    @Override
    public PositionDeleteIndex loadPositionDeletes(Iterable<DeleteFile> deleteFiles, CharSequence dataLocation) {
      List<DeleteFile> files = new ArrayList<>();
      for (DeleteFile file : deleteFiles) {
        if (!readsItself(file)) {
          return iceberg.loadPositionDeletes(deleteFiles, dataLocation);
        }
        files.add(file);
      }
      String location = dataLocation.toString();
      List<PositionDeleteIndex> indexes = new ArrayList<>(files.size());
      for (DeleteFile file : files) {
        List<Long> positions = new ArrayList<>();
        // file-scoped: named as such, or its file_path column's bounds are this file
        boolean scoped = location.equals(ContentFileUtil.referencedDataFileLocation(file));
        if (!PositionDeleteReader.read(loadInputFile(file), location, scoped, positions::add)) {
          return iceberg.loadPositionDeletes(deleteFiles, dataLocation);
        }
        indexes.add(Deletes.toPositionIndex(location, rows(location, positions), file));
      }
      return indexes.size() == 1 ? indexes.get(0) : PositionDeleteIndexUtil.merge(indexes);
    }

    private boolean readsItself(DeleteFile file) {
      return file.content() == FileContent.POSITION_DELETES
          && file.format() == FileFormat.PARQUET
          && file.keyMetadata() == null
          && !ContentFileUtil.isDV(file);
    }
  }

  /** Position delete rows ({@code file_path}, {@code pos}) of one data file, one struct reused. */
  private static CloseableIterable<StructLike> rows(String location, List<Long> positions) {
    Object[] row = {location, null};
    StructLike struct = new StructLike() {
      @Override
      public int size() {
        return 2;
      }

      @Override
      public <T> T get(int pos, Class<T> javaClass) {
        return javaClass.cast(row[pos]);
      }

      @Override
      public <T> void set(int pos, T value) {
        throw new UnsupportedOperationException("Position delete rows are read only");
      }
    };
    return CloseableIterable.withNoopClose(() -> new java.util.Iterator<StructLike>() {
      private int next = 0;

      @Override
      public boolean hasNext() {
        return next < positions.size();
      }

      @Override
      public StructLike next() {
        row[1] = positions.get(next++);
        return struct;
      }
    });
  }
}
