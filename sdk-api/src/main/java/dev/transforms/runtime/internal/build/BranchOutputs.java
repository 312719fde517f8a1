package dev.transforms.runtime.internal.build;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.config.BranchNames;
import dev.transforms.runtime.internal.publish.BranchPromotion;
import dev.transforms.runtime.internal.publish.BuildBranch;
import dev.transforms.runtime.internal.publish.OutputPublisher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * The output tables of some transforms, as {@code transforms promote}, {@code branch list} and
 * {@code branch drop} see them: each path resolved and loaded if its table exists, then handed to
 * {@link BranchPromotion}.
 *
 * @param catalogs the catalogs the tables live in
 * @param resolver the resolver of dataset paths
 * @param paths the dataset paths of the table outputs
 */
public record BranchOutputs(Catalogs catalogs, TableResolver resolver, List<String> paths) {

  /**
   * The branches built on the outputs, but {@code main} and the SDK's staging branches.
   *
   * @return each branch with the paths of the outputs that have it, by name
   */
  public Map<String, List<String>> branches() {
    Map<String, List<String>> named = new TreeMap<>();
    BranchPromotion.list(tables()).forEach((branch, found) ->
        named.put(branch, found.stream().map(DatasetPath::toString).toList()));
    return named;
  }

  /**
   * Promotes a branch on every output that has it ({@link BranchPromotion#promote}).
   *
   * @param branch the branch's name
   * @return the paths promoted
   * @throws IllegalArgumentException naming the branch, if no build could have used that name
   */
  public List<String> promote(String branch) {
    BuildBranch target = new BuildBranch(BranchNames.check(branch), List.of());
    List<OutputPublisher.Output> outputs = new ArrayList<>();
    tables().forEach((path, table) -> {
      ResolvedTable resolved = resolver.resolve(path);
      outputs.add(new OutputPublisher.Output(path, resolved, catalogs.catalog(resolved.catalog()), table));
    });
    return BranchPromotion.promote(target, outputs, name -> catalogs.config().catalogs().get(name)).stream()
        .map(DatasetPath::toString).toList();
  }

  /**
   * Drops a branch from every output that has it ({@link BranchPromotion#drop}).
   *
   * @param branch the branch's name
   * @return the paths it was dropped from
   * @throws IllegalArgumentException naming the branch, if no build could have used that name
   */
  public List<String> drop(String branch) {
    BuildBranch target = new BuildBranch(BranchNames.check(branch), List.of());
    return BranchPromotion.drop(target, tables()).stream().map(DatasetPath::toString).toList();
  }

  /**
   * The outputs whose tables exist, by path. A catalog whose database does not exist yet holds none, and is
   * not created: listing, promoting or dropping a branch never makes a warehouse or a catalog database.
   */
  private Map<DatasetPath, Table> tables() {
    Map<DatasetPath, Table> tables = new LinkedHashMap<>();
    for (String output : paths) {
      DatasetPath path = DatasetPath.of(output);
      ResolvedTable resolved = resolver.resolve(path);
      Optional<Catalog> catalog = catalogs.existingCatalog(resolved.catalog());
      if (catalog.isPresent() && catalog.get().tableExists(resolved.identifier())) {
        tables.put(path, catalog.get().loadTable(resolved.identifier()));
      }
    }
    return tables;
  }
}
