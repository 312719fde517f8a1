package dev.transforms.lineage;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import io.openlineage.client.OpenLineage;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * The data quality assertions facet on an output dataset: the expectations evaluated on what the
 * transform staged for it. The client models this facet as an input facet only; its JSON is the same.
 */
final class OutputAssertionsFacet implements OpenLineage.DatasetFacet {
  private final OpenLineage.DataQualityAssertionsDatasetFacet facet;

  OutputAssertionsFacet(OpenLineage.DataQualityAssertionsDatasetFacet facet) {
    this.facet = facet;
  }

  @Override
  public URI get_producer() {
    return facet.get_producer();
  }

  @Override
  public URI get_schemaURL() {
    return facet.get_schemaURL();
  }

  @Override
  public Boolean get_deleted() {
    return null;
  }

  @Override
  @JsonIgnore
  public Boolean isDeleted() {
    return null;
  }

  /**
   * The assertions.
   *
   * @return one per expectation
   */
  public List<OpenLineage.DataQualityAssertionsDatasetFacetAssertions> getAssertions() {
    return facet.getAssertions();
  }

  @Override
  @JsonAnyGetter
  public Map<String, Object> getAdditionalProperties() {
    return facet.getAdditionalProperties();
  }
}
