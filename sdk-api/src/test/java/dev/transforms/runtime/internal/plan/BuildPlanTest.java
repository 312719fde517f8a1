package dev.transforms.runtime.internal.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.PlanException;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.runtime.spi.TransformSpec;
import dev.transforms.testengine.TestInput;
import dev.transforms.testengine.TestOutput;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

public class BuildPlanTest {

  /** A diamond: a feeds b and c, which both feed d; e stands alone. */
  public static class Diamond {
    @Transform public void d(@TableInput("/p/b") TestInput b, @TableInput("/p/c") TestInput c, @TableOutput("/p/d") TestOutput out) {}
    @Transform public void c(@TableInput("/p/a") TestInput a, @TableOutput("/p/c") TestOutput out) {}
    @Transform public void b(@TableInput("/p/a") TestInput a, @TableOutput("/p/b") TestOutput out) {}
    @Transform public void a(@TableInput("/raw/x") TestInput x, @TableOutput("/p/a") TestOutput out) {}
    @Transform public void e(@TableInput("/raw/y") TestInput y, @TableOutput("/p/e") TestOutput out) {}
  }

  /** Three transforms in a cycle. */
  public static class Cycle {
    @Transform public void one(@TableInput("/c/3") TestInput in, @TableOutput("/c/1") TestOutput out) {}
    @Transform public void two(@TableInput("/c/1") TestInput in, @TableOutput("/c/2") TestOutput out) {}
    @Transform public void three(@TableInput("/c/2") TestInput in, @TableOutput("/c/3") TestOutput out) {}
  }

  /** Two producers of one output. */
  public static class TwoProducers {
    @Transform public void first(@TableOutput("/dup/out") TestOutput out) {}
    @Transform public void second(@TableInput("/dup/in") TestInput in, @TableOutput("/dup/out") TestOutput out) {}
  }

  /** Another class with a transform of the same name. */
  public static class SameName {
    @Transform(name = "Diamond.a") public void other(@TableOutput("/z/z") TestOutput out) {}
  }

  private static List<TransformSpec> specs(Class<?>... types) {
    List<TransformSpec> specs = new ArrayList<>();
    for (Class<?> type : types) {
      specs.addAll(ReflectiveModels.transformsOf(type));
    }
    return specs;
  }

  private static List<String> names(BuildPlan plan) {
    return plan.transforms().stream().map(TransformSpec::name).toList();
  }

  @Test
  void planningSomeTransformsIgnoresNameClashesAndCyclesElsewhere() {
    List<TransformSpec> all = specs(Diamond.class, SameName.class, Cycle.class);
    assertThatThrownBy(() -> BuildPlan.of(all)).isInstanceOf(PlanException.class);
    // Diamond.a is upstream of d, and the other transform named Diamond.a is not: the producer of /p/a wins.
    assertThat(names(BuildPlan.of(all, List.of("Diamond.d")))).containsExactly("Diamond.a", "Diamond.b", "Diamond.c",
        "Diamond.d");
    assertThat(BuildPlan.of(all, List.of("Diamond.d")).transforms().get(0).method().getDeclaringClass())
        .isEqualTo(Diamond.class);
    assertThat(names(BuildPlan.of(all, List.of("Diamond.e")))).containsExactly("Diamond.e");
  }

  @Test
  void aNameTwoTransformsShareIsRefusedUnlessGivenInFull() {
    List<TransformSpec> all = specs(Diamond.class, SameName.class);
    assertThatThrownBy(() -> BuildPlan.of(all, List.of("Diamond.a")))
        .isInstanceOf(PlanException.class)
        .hasMessage("Two transforms are named Diamond.a: " + Diamond.class.getName() + ".a and "
            + SameName.class.getName() + ".other; name one by its full name (" + Diamond.class.getName()
            + ".a), or give one a different @Transform(name)");
    BuildPlan plan = BuildPlan.of(all, List.of(SameName.class.getName() + ".other"));
    assertThat(names(plan)).containsExactly("Diamond.a");
    assertThat(plan.transforms().get(0).method().getDeclaringClass()).isEqualTo(SameName.class);
    assertThatThrownBy(() -> BuildPlan.of(all, List.of("nope")))
        .hasMessageStartingWith("No transform is named nope; transforms: Diamond.a, Diamond.b");
  }

  @Test
  void ordersByDependencyThenByName() {
    BuildPlan plan = BuildPlan.of(specs(Diamond.class));
    assertThat(names(plan)).containsExactly("Diamond.a", "Diamond.b", "Diamond.c", "Diamond.d", "Diamond.e");
    assertThat(plan.upstreamOf("Diamond.d")).containsExactly("Diamond.b", "Diamond.c");
  }

  @Test
  void selectingATransformBringsItsUpstreamOnly() {
    BuildPlan plan = BuildPlan.of(specs(Diamond.class));
    assertThat(names(plan.select(List.of("Diamond.c")))).containsExactly("Diamond.a", "Diamond.c");
    assertThat(names(plan.select(List.of("Diamond.e")))).containsExactly("Diamond.e");
    assertThatThrownBy(() -> plan.select(List.of("nope")))
        .isInstanceOf(PlanException.class)
        .hasMessage("No transform is named nope; transforms: Diamond.a, Diamond.b, Diamond.c, Diamond.d, Diamond.e");
  }

  @Test
  void rejectsACycleNamingEveryTransformInIt() {
    assertThatThrownBy(() -> BuildPlan.of(specs(Cycle.class)))
        .isInstanceOf(PlanException.class)
        .hasMessage("Transforms form a cycle: Cycle.one -> Cycle.two -> Cycle.three -> Cycle.one; "
            + "a transform cannot read, even indirectly, what it writes");
  }

  @Test
  void rejectsAnOutputProducedTwiceNamingBoth() {
    assertThatThrownBy(() -> BuildPlan.of(specs(TwoProducers.class)))
        .isInstanceOf(PlanException.class)
        .hasMessage("Output /dup/out is produced by two transforms, TwoProducers.first and TwoProducers.second; "
            + "a dataset has one producer");
  }

  @Test
  void rejectsTwoTransformsWithOneName() {
    assertThatThrownBy(() -> BuildPlan.of(specs(Diamond.class, SameName.class)))
        .isInstanceOf(PlanException.class)
        .hasMessageStartingWith("Two transforms are named Diamond.a: dev.transforms.runtime.internal.plan.BuildPlanTest$Diamond.a and "
            + "dev.transforms.runtime.internal.plan.BuildPlanTest$SameName.other");
  }
}
