package dev.transforms.spark;

import java.util.Arrays;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * Spark 4.1: an Iceberg procedure in Spark's own procedure API (unbound, then bound to the call's
 * argument types), whose bound calls pass the {@link ProcedureGuard} first.
 */
final class GuardedProcedure implements UnboundProcedure {

  private final UnboundProcedure delegate;
  private final String name;
  private final RoutingSparkCatalog catalog;

  GuardedProcedure(UnboundProcedure delegate, String name, RoutingSparkCatalog catalog) {
    this.delegate = delegate;
    this.name = name;
    this.catalog = catalog;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public String description() {
    return delegate.description();
  }

  @Override
  public BoundProcedure bind(StructType inputType) {
    return new Bound(delegate.bind(inputType));
  }

  /** The bound procedure: its arguments come one per parameter, in the order of its parameters. */
  private final class Bound implements BoundProcedure {

    private final BoundProcedure bound;
    private final ProcedureGuard guard;

    Bound(BoundProcedure bound) {
      this.bound = bound;
      ProcedureParameter[] parameters = bound.parameters();
      this.guard = new ProcedureGuard(name,
          Arrays.stream(parameters).map(ProcedureParameter::name).toArray(String[]::new),
          Arrays.stream(parameters).map(ProcedureParameter::dataType).toArray(DataType[]::new), catalog);
    }

    @Override
    public String name() {
      return bound.name();
    }

    @Override
    public String description() {
      return bound.description();
    }

    @Override
    public ProcedureParameter[] parameters() {
      return bound.parameters();
    }

    @Override
    public boolean isDeterministic() {
      return bound.isDeterministic();
    }

    @Override
    public Iterator<Scan> call(InternalRow args) {
      return bound.call(guard.check(args));
    }
  }
}
