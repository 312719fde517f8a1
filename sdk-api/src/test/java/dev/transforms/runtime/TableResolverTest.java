package dev.transforms.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.ConfigurationException;
import dev.transforms.api.InvalidPathException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableResolverTest {

  @TempDir Path dir;

  private TableResolver embedded() {
    return new TableResolver(TransformsConfig.embedded(dir.resolve("warehouse")));
  }

  @Test
  void resolvesTheExamplePathOnTheEmbeddedCatalog() {
    ResolvedTable table = embedded().resolve(DatasetPath.of("/Examples/iceberg/row-updates"));
    assertThat(table.catalog()).isEqualTo("local");
    assertThat(table.namespace()).containsExactly("Examples", "iceberg");
    assertThat(table.table()).isEqualTo("row-updates");
    assertThat(table.identifier()).isEqualTo(TableIdentifier.of("Examples", "iceberg", "row-updates"));
    assertThat(table.sparkIdentifier()).isEqualTo("`local`.`Examples`.`iceberg`.`row-updates`");
    assertThat(table.procedureTableName()).isEqualTo("`Examples`.`iceberg`.`row-updates`");
  }

  @Test
  void quotesHostileNamesPartByPart() {
    ResolvedTable table = embedded().resolve(DatasetPath.of("/we`ird/it's/; DROP TABLE x"));
    assertThat(table.sparkIdentifier()).isEqualTo("`local`.`we``ird`.`it's`.`; DROP TABLE x`");
    assertThat(table.procedureTableName()).isEqualTo("`we``ird`.`it\\'s`.`; DROP TABLE x`");
    assertThat(table.sparkNamespace()).isEqualTo("`local`.`we``ird`.`it's`");
    assertThat(ResolvedTable.quote("``")).isEqualTo("``````");
  }

  @Test
  void deepestMountWinsAndAddsItsNamespace() throws Exception {
    Path file = dir.resolve("transforms.properties");
    Files.writeString(file, String.join("\n",
        "catalog.prod.type=rest",
        "catalog.prod.uri=http://127.0.0.1:8181",
        "mount./=local",
        "mount./Prod=prod:analytics.core",
        "mount./Prod/raw=local:landing"));
    TableResolver resolver = new TableResolver(TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir));
    ResolvedTable prod = resolver.resolve(DatasetPath.of("/Prod/sales/orders"));
    assertThat(prod.catalog()).isEqualTo("prod");
    assertThat(prod.namespace()).containsExactly("analytics", "core", "sales");
    ResolvedTable raw = resolver.resolve(DatasetPath.of("/Prod/raw/events"));
    assertThat(raw.catalog()).isEqualTo("local");
    assertThat(raw.namespace()).isEqualTo(List.of("landing"));
    assertThat(resolver.resolve(DatasetPath.of("/Other/x")).catalog()).isEqualTo("local");
  }

  @Test
  void aPathWithNoNamespaceIsRejectedWithTheFix() {
    assertThatThrownBy(() -> embedded().resolve(DatasetPath.of("/orders")))
        .isInstanceOf(InvalidPathException.class)
        .hasMessageStartingWith("Dataset path '/orders' resolves to no namespace in catalog 'local'");
  }

  @Test
  void aDotInAFolderIsRejectedOnJdbcCatalogs() {
    assertThatThrownBy(() -> embedded().resolve(DatasetPath.of("/v1.2/orders")))
        .isInstanceOf(InvalidPathException.class)
        .hasMessage("Dataset path '/v1.2/orders' has the folder 'v1.2' with a '.', which the JDBC catalog 'local' "
            + "cannot store in a namespace; rename the folder");
    assertThat(embedded().resolve(DatasetPath.of("/ns/orders.v2")).table()).isEqualTo("orders.v2");
  }

  @Test
  void aDotInAFolderIsRejectedOnAJdbcCatalogDeclaredByItsClassOrAnUpperCaseType() throws Exception {
    Path file = dir.resolve("transforms.properties");
    Files.writeString(file, String.join("\n",
        "catalog.plug.catalog-impl=org.apache.iceberg.jdbc.JdbcCatalog",
        "catalog.plug.uri=jdbc:sqlite:" + dir.resolve("plug.db"),
        "catalog.shout.type=JDBC",
        "catalog.shout.uri=jdbc:sqlite:" + dir.resolve("shout.db"),
        "catalog.files.type=hadoop",
        "catalog.files.warehouse=" + dir.resolve("files").toUri(),
        "mount./Plug=plug",
        "mount./Shout=shout",
        "mount./Files=files"));
    TableResolver resolver = new TableResolver(TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir));
    assertThatThrownBy(() -> resolver.resolve(DatasetPath.of("/Plug/v1.2/events")))
        .isInstanceOf(InvalidPathException.class)
        .hasMessage("Dataset path '/Plug/v1.2/events' has the folder 'v1.2' with a '.', which the JDBC catalog 'plug' "
            + "cannot store in a namespace; rename the folder");
    assertThatThrownBy(() -> resolver.resolve(DatasetPath.of("/Shout/v1.2/events")))
        .isInstanceOf(InvalidPathException.class);
    // Other catalogs keep dotted folders.
    assertThat(resolver.resolve(DatasetPath.of("/Files/v1.2/events")).namespace()).containsExactly("v1.2");
  }

  @Test
  void anUnmountedPathNamesTheFix() throws Exception {
    Path file = dir.resolve("transforms.properties");
    Files.writeString(file, "mount./Only=local\n");
    TableResolver resolver = new TableResolver(TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir));
    assertThatThrownBy(() -> resolver.resolve(DatasetPath.of("/Elsewhere/t")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("No mount holds dataset path '/Elsewhere/t'; add mount.PREFIX=CATALOG for it to " + file);
  }
}
