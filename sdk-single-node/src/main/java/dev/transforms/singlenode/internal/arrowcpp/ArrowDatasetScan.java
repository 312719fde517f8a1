package dev.transforms.singlenode.internal.arrowcpp;

import dev.transforms.singlenode.internal.read.ColumnHalves;
import java.util.Map;
import dev.transforms.singlenode.internal.plan.DirectScan;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.dataset.file.FileFormat;
import org.apache.arrow.dataset.file.FileSystemDatasetFactory;
import org.apache.arrow.dataset.jni.JniLoader;
import org.apache.arrow.dataset.jni.NativeMemoryPool;
import org.apache.arrow.dataset.scanner.ScanOptions;
import org.apache.arrow.dataset.scanner.Scanner;
import org.apache.arrow.dataset.source.Dataset;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.types.Types;

/**
 * The reads of {@link ArrowDatasetRead} through Arrow Java's dataset module. Every use of the module's
 * classes is here, apart from {@link ArrowDatasetRead}, which the
 * engine calls whether or not the optional module is on the class path: the JVM loads these classes
 * only once {@link ArrowDatasetRead#ready} has found the module.
 */
final class ArrowDatasetScan {

  private ArrowDatasetScan() {}

  /** Loads Arrow C++'s native library; throws when the platform has none, or it does not link. */
  static void loadLibrary() {
    JniLoader.get().ensureLoaded();
  }

  /** One scanner of some columns of the scan's files, found by their names there, into one root of the engine's fields. */
  static Optional<VectorSchemaRoot> readOne(DirectScan scan, List<Types.NestedField> columns,
      Map<Integer, String> fileNames, BufferAllocator allocator) {
    Schema wanted = ArrowSchemas.toArrow(new org.apache.iceberg.Schema(columns));
    String[] names = columns.stream().map(column -> fileNames.get(column.fieldId())).toArray(String[]::new);
    String[] uris = scan.files().stream().map(Path::toUri).map(Object::toString).toArray(String[]::new);
    long batch = Math.max(1, Math.min(Integer.MAX_VALUE - 1, scan.rows()));
    try (FileSystemDatasetFactory factory = new FileSystemDatasetFactory(allocator, NativeMemoryPool.getDefault(),
            FileFormat.PARQUET, uris);
        Dataset dataset = factory.finish();
        Scanner scanner = dataset.newScan(new ScanOptions.Builder(batch).columns(Optional.of(names)).build());
        ArrowReader reader = scanner.scanBatches()) {
      VectorSchemaRoot batchRoot = reader.getVectorSchemaRoot();
      int[] order = ArrowDatasetRead.positions(batchRoot.getSchema(), columns, fileNames, wanted);
      if (order == null) {
        return Optional.empty();
      }
      return Optional.of(ColumnHalves.gather(reader, () -> reorder(batchRoot, order, wanted), wanted, allocator));
    } catch (IOException e) {
      throw new UncheckedIOException("Arrow C++ could not read the Parquet files " + scan.files(), e);
    } catch (Exception e) {
      throw e instanceof RuntimeException runtime ? runtime
          : new IllegalStateException("Arrow C++ could not read the Parquet files " + scan.files(), e);
    }
  }

  /** The scanner's current batch with its vectors in the wanted order (the vectors are shared, not copied). */
  private static VectorSchemaRoot reorder(VectorSchemaRoot batch, int[] order, Schema wanted) {
    List<FieldVector> vectors = new ArrayList<>(order.length);
    for (int at : order) {
      vectors.add(batch.getVector(at));
    }
    List<Field> fields = new ArrayList<>(order.length);
    for (FieldVector vector : vectors) {
      fields.add(vector.getField());
    }
    return new VectorSchemaRoot(fields, vectors, batch.getRowCount());
  }
}
