package dev.transforms.runtime.internal.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NameChoicesTest {

  @Test
  void aSmallPipelineListsEveryName() {
    assertThat(NameChoices.describe("nope", List.of("B.b", "A.a", "C.c"))).isEqualTo("A.a, B.b, C.c");
  }

  @Test
  void aLargePipelineListsTheClosestFiveAndHowManyThereAre() {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      names.add("Job" + i + ".step" + i);
    }
    names.add("Customers.latest");
    names.add("Customers.history");
    String offered = NameChoices.describe("Customers.lates", names);
    assertThat(offered).startsWith("Customers.latest, ").endsWith("(the closest of 62; transforms plan lists them all)");
    assertThat(offered.split(", ")).hasSize(5);
    assertThat(NameChoices.describe("Customer.history", names)).startsWith("Customers.history, ");
    assertThat(offered.length()).isLessThan(200);
  }

  @Test
  void theOneNameAPersonMeantIsSuggested() {
    List<String> names = List.of("CleanOrders.cleanOrders", "CleanOrders.dailyTotals", "Shop.cleanCustomers");
    // The method part alone, in any letter case.
    assertThat(NameChoices.noSuchTransform("cleanOrders", names)).isEqualTo("No transform is named cleanOrders; did "
        + "you mean CleanOrders.cleanOrders?; transforms: CleanOrders.cleanOrders, CleanOrders.dailyTotals, "
        + "Shop.cleanCustomers");
    assertThat(NameChoices.meant("DAILYTOTALS", names)).hasValue("CleanOrders.dailyTotals");
    // A typo of the full name.
    assertThat(NameChoices.meant("CleanOrders.dailyTotal", names)).hasValue("CleanOrders.dailyTotals");
    // Nothing close, or two equally close: no suggestion.
    assertThat(NameChoices.noSuchTransform("nope", names)).startsWith("No transform is named nope; transforms: ");
    assertThat(NameChoices.meant("clean", List.of("A.clean", "B.clean"))).isEmpty();
  }
}
