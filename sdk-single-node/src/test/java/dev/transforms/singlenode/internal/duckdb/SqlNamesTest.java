package dev.transforms.singlenode.internal.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlNamesTest {

  @Test
  void parameterNamesBecomeSnakeCase() {
    assertThat(SqlNames.snakeCase("rowUpdates")).isEqualTo("row_updates");
    assertThat(SqlNames.snakeCase("orders")).isEqualTo("orders");
    assertThat(SqlNames.snakeCase("HTTPLogs")).isEqualTo("http_logs");
    assertThat(SqlNames.snakeCase("events2024Raw")).isEqualTo("events2024_raw");
    assertThat(SqlNames.snakeCase("row-updates")).isEqualTo("row_updates");
    assertThat(SqlNames.snakeCase("2024 sales")).isEqualTo("_2024_sales");
  }

  @Test
  void withoutCompiledNamesThePathsLastSegmentIsUsedAndClashesAreNumbered() {
    assertThat(SqlNames.defaults(List.of(new SqlNames.Parameter("arg0", "row-updates"),
        new SqlNames.Parameter("arg1", "row_updates"), new SqlNames.Parameter("customerOrders", "x"))))
        .containsExactly("row_updates", "row_updates_2", "customer_orders");
  }

  @Test
  void registerTakesOnlyPlainNames() {
    assertThat(SqlNames.checkPlain("_north2")).isEqualTo("_north2");
    assertThatThrownBy(() -> SqlNames.checkPlain("north orders"))
        .hasMessageContaining("Argument name of register").hasMessageContaining("'north orders'");
    assertThatThrownBy(() -> SqlNames.checkPlain(null)).hasMessageContaining("not null");
  }

  @Test
  void mentionsFindWholeWordsOnly() {
    assertThat(SqlNames.mentions("SELECT * FROM Orders o", "orders")).isTrue();
    assertThat(SqlNames.mentions("SELECT * FROM orders_2024", "orders")).isFalse();
    assertThat(SqlNames.mentions("SELECT * FROM \"orders\"", "orders")).isTrue();
  }
}
