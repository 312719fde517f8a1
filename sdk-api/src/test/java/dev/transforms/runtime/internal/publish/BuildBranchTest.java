package dev.transforms.runtime.internal.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.config.ConfigValues;
import dev.transforms.runtime.internal.config.BranchNames;
import dev.transforms.runtime.internal.config.BuildSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rules of a branch name and of {@code branch.fallbacks}, and the keys a branch's state lives under. */
class BuildBranchTest {

  @Test
  void fallbacksAreMainUnlessSetAndReadInOrder() {
    assertThat(BuildSettings.branchFallbacks(ConfigValues.of(Map.of(), "test"))).containsExactly("main");
    assertThat(BuildSettings.branchFallbacks(ConfigValues.of(Map.of("branch.fallbacks", " staging , main"), "test")))
        .containsExactly("staging", "main");
  }

  @Test
  void aFallbackNoBuildCouldUseIsAConfigurationErrorNamingTheKey() {
    assertThatThrownBy(() -> BuildSettings.of(
        ConfigValues.of(Map.of("branch.fallbacks", "main,transforms_ab12"), "test")))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("branch.fallbacks")
        .hasMessageContaining("'transforms_ab12'");
    assertThatThrownBy(() -> BranchNames.fallbacks(BuildSettings.BRANCH_FALLBACKS, " , "))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("names no branch");
  }

  @Test
  void namesAreCheckedAndNamedInTheError() {
    assertThat(BranchNames.check("new-totals_2")).isEqualTo("new-totals_2");
    for (String bad : List.of("", "main", "Transforms_x", "a/b", "-dev", "x".repeat(65))) {
      assertThatThrownBy(() -> BranchNames.check(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + bad + "'");
    }
  }

  @Test
  void aBranchKeepsItsStateUnderItsOwnKeysAndMainUnderTheUsualOnes() {
    BuildBranch dev = new BuildBranch("dev", List.of("main"));
    assertThat(dev.stateKey("transforms.state.snapshot-id"))
        .isEqualTo("transforms.branch.dev.transforms.state.snapshot-id");
    assertThat(dev.ownsKey("transforms.branch.dev.transforms.state.snapshot-id")).isTrue();
    assertThat(dev.ownsKey("transforms.branch.dev2.transforms.state.snapshot-id")).isFalse();
    assertThat(BuildBranch.MAIN.stateKey("transforms.state.snapshot-id")).isEqualTo("transforms.state.snapshot-id");
    assertThat(BuildBranch.MAIN.ownsKey("transforms.state.snapshot-id")).isFalse();
  }
}
