package dev.transforms.spark;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.spark.source.SparkTable;
import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.connector.catalog.SupportsMetadataColumns;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * An output of the running transform named past its staging branch ({@code `t`.branch_main},
 * {@code `t`.tag_x}): it can be read, and Spark refuses to write it ("does not support ... write"),
 * so no write of the transform reaches a branch the runtime does not publish or discard. The error
 * says why: {@link ReadOnlyWrites} refuses the write first, naming the table as written, and Spark's
 * own check names the table by {@link #name()}.
 */
final class ReadOnlyTable implements SupportsRead, SupportsMetadataColumns {

  private final SparkTable table;

  ReadOnlyTable(SparkTable table) {
    this.table = table;
  }

  @Override
  public String name() {
    return underlyingName() + " " + ReadOnlyWrites.REASON;
  }

  /** The name of the table this one reads, as Iceberg gives it. */
  String underlyingName() {
    return table.name();
  }

  @Override
  public StructType schema() {
    return table.schema();
  }

  @Override
  public Transform[] partitioning() {
    return table.partitioning();
  }

  @Override
  public Map<String, String> properties() {
    return table.properties();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return table.capabilities().stream().filter(c -> c == TableCapability.BATCH_READ || c == TableCapability.MICRO_BATCH_READ)
        .collect(Collectors.toUnmodifiableSet());
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return table.newScanBuilder(options);
  }

  @Override
  public MetadataColumn[] metadataColumns() {
    return table.metadataColumns();
  }
}
