package dev.transforms.singlenode.internal.parquet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.iceberg.shaded.org.apache.parquet.io.LocalInputFile;

/**
 * The Iceberg {@link DataFile} of a Parquet file a native writer or a page copy wrote: metrics from its
 * footer, as Iceberg's Parquet writer computes them with the same field metrics (Parquet's footer has
 * no NaN counts, and float bounds there may be NaN), split offsets and size.
 */
public final class WrittenFile {

  private WrittenFile() {}

  /**
   * The data file of a Parquet file on the local file system.
   *
   * @param table the table, for its metrics configuration
   * @param partition the file's partition, or null for an unpartitioned spec
   * @param location the file's location, as the table names it
   * @param path the file on the local file system
   * @param floatMetrics the metrics of the float and double columns
   * @throws IOException if the footer cannot be read
   */
  public static DataFile dataFile(Table table, PartitionSpec spec, StructLike partition, String location, Path path,
      Stream<FieldMetrics<?>> floatMetrics) throws IOException {
    ParquetMetadata footer;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(path))) {
      footer = reader.getFooter();
    }
    return dataFile(table, spec, partition, location, footer, Files.size(path), floatMetrics);
  }

  /**
   * The data file of a Parquet file just written, from the footer its writer wrote: nothing is read.
   *
   * @param table the table, for its metrics configuration
   * @param partition the file's partition, or null for an unpartitioned spec
   * @param location the file's location, as the table names it
   * @param footer the file's footer
   * @param length the file's length in bytes
   * @param floatMetrics the metrics of the float and double columns
   */
  public static DataFile dataFile(Table table, PartitionSpec spec, StructLike partition, String location,
      ParquetMetadata footer, long length, Stream<FieldMetrics<?>> floatMetrics) {
    return DataFiles.builder(spec)
        .withPath(location)
        .withFormat(FileFormat.PARQUET)
        .withPartition(partition)
        .withFileSizeInBytes(length)
        .withMetrics(ParquetUtil.footerMetrics(footer, floatMetrics, MetricsConfig.forTable(table)))
        .withSplitOffsets(ParquetUtil.getSplitOffsets(footer))
        .build();
  }
}
