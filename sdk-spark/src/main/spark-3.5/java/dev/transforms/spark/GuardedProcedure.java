package dev.transforms.spark;

import java.util.Arrays;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.iceberg.catalog.Procedure;
import org.apache.spark.sql.connector.iceberg.catalog.ProcedureParameter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * Spark 3.5: an Iceberg procedure (Iceberg's own procedure API of this line,
 * {@code org.apache.spark.sql.connector.iceberg.catalog.Procedure}) whose calls pass the
 * {@link ProcedureGuard} first.
 */
final class GuardedProcedure implements Procedure {

  private final Procedure delegate;
  private final ProcedureGuard guard;

  GuardedProcedure(Procedure delegate, String name, RoutingSparkCatalog catalog) {
    this.delegate = delegate;
    ProcedureParameter[] parameters = delegate.parameters();
    this.guard = new ProcedureGuard(name,
        Arrays.stream(parameters).map(ProcedureParameter::name).toArray(String[]::new),
        Arrays.stream(parameters).map(ProcedureParameter::dataType).toArray(DataType[]::new), catalog);
  }

  @Override
  public ProcedureParameter[] parameters() {
    return delegate.parameters();
  }

  @Override
  public StructType outputType() {
    return delegate.outputType();
  }

  @Override
  public String description() {
    return delegate.description();
  }

  @Override
  public InternalRow[] call(InternalRow args) {
    return delegate.call(guard.check(args));
  }
}
