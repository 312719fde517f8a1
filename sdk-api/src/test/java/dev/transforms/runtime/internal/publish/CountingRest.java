package dev.transforms.runtime.internal.publish;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableCommit;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * A {@link RESTCatalog} that serves no HTTP: it counts {@code commitTransaction} calls (with the number
 * of tables in each) and applies each call's table commits to another catalog, checking their
 * requirements as a REST server does. Iceberg's in-process REST server ({@code RESTCatalogAdapter}) comes
 * in the {@code iceberg-core} tests jar of 1.11, built against unshaded Jackson, and fails beside the
 * 1.12 runtime jar this module uses (its {@code RESTObjectMapper} is shaded there); the real server runs
 * in its own JVM in {@code cluster-test/rest-catalog}. So this checks that promote asks a REST catalog
 * for one multi-table commit, not what a REST server does with it.
 */
final class CountingRest extends RESTCatalog {

  /** The calls of {@code commitTransaction}, each as the number of tables it committed. */
  final List<Integer> calls = new ArrayList<>();

  private final Catalog tables;

  CountingRest(Catalog tables) {
    this.tables = tables;
  }

  @Override
  public void commitTransaction(List<TableCommit> commits) {
    calls.add(commits.size());
    for (TableCommit commit : commits) {
      TableOperations operations = ((HasTableOperations) tables.loadTable(commit.identifier())).operations();
      TableMetadata base = operations.refresh();
      commit.requirements().forEach(requirement -> requirement.validate(base));
      TableMetadata.Builder builder = TableMetadata.buildFrom(base);
      for (MetadataUpdate update : commit.updates()) {
        update.applyTo(builder);
      }
      operations.commit(base, builder.build());
    }
  }

  @Override
  public String name() {
    return "rest";
  }
}
