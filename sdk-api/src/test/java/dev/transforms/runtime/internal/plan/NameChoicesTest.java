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
}
