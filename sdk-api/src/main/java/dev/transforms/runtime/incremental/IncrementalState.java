package dev.transforms.runtime.incremental;

import dev.transforms.runtime.path.DatasetPath;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Snapshot;

/**
 * What a successful build leaves in each output's snapshot summary so the next build can tell what it
 * already consumed: the transform, its semantic version, the build id, and the snapshot id of every
 * input it read.
 *
 * <p>Keys: {@code transforms.transform}, {@code transforms.semantic-version},
 * {@code transforms.build-id}, and {@code transforms.input.PATH} with the snapshot id, or
 * {@value #NO_SNAPSHOT} for an input that had no snapshot yet.
 *
 * @param transform the transform's name
 * @param semanticVersion the semantic version it ran with
 * @param buildId the build that wrote it
 * @param inputSnapshots the snapshot id each input was read at; a missing value means the input was empty
 */
public record IncrementalState(
    String transform, int semanticVersion, String buildId, Map<DatasetPath, OptionalLong> inputSnapshots) {

  /** Summary key of the transform name. */
  public static final String TRANSFORM = "transforms.transform";
  /** Summary key of the semantic version. */
  public static final String SEMANTIC_VERSION = "transforms.semantic-version";
  /** Summary key of the build id. */
  public static final String BUILD_ID = "transforms.build-id";
  /** Prefix of the summary keys of input snapshot ids. */
  public static final String INPUT_PREFIX = "transforms.input.";
  /** The value stored for an input that had no snapshot. */
  public static final String NO_SNAPSHOT = "none";

  /**
   * Copies the map so the state stays immutable.
   *
   * @param transform the transform name
   * @param semanticVersion the semantic version
   * @param buildId the build id
   * @param inputSnapshots input snapshot ids by path
   */
  public IncrementalState {
    inputSnapshots = Map.copyOf(inputSnapshots);
  }

  /**
   * The summary properties that store this state.
   *
   * @return properties to stamp on an output commit
   */
  public Map<String, String> toSummary() {
    Map<String, String> summary = new LinkedHashMap<>();
    summary.put(TRANSFORM, transform);
    summary.put(SEMANTIC_VERSION, Integer.toString(semanticVersion));
    summary.put(BUILD_ID, buildId);
    inputSnapshots.forEach((path, id) ->
        summary.put(INPUT_PREFIX + path, id.isPresent() ? Long.toString(id.getAsLong()) : NO_SNAPSHOT));
    return summary;
  }

  /**
   * Reads the state a snapshot carries.
   *
   * @param snapshot an output snapshot, possibly null
   * @return the state, or empty if the snapshot carries none (or is null)
   */
  public static Optional<IncrementalState> fromSnapshot(Snapshot snapshot) {
    if (snapshot == null || snapshot.summary() == null || !snapshot.summary().containsKey(TRANSFORM)) {
      return Optional.empty();
    }
    Map<String, String> summary = snapshot.summary();
    Map<DatasetPath, OptionalLong> inputs = new LinkedHashMap<>();
    summary.forEach((key, value) -> {
      if (key.startsWith(INPUT_PREFIX)) {
        DatasetPath path = DatasetPath.of(key.substring(INPUT_PREFIX.length()));
        inputs.put(path, NO_SNAPSHOT.equals(value) ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value)));
      }
    });
    int version;
    try {
      version = Integer.parseInt(summary.getOrDefault(SEMANTIC_VERSION, "0"));
    } catch (NumberFormatException e) {
      version = 0;
    }
    return Optional.of(new IncrementalState(summary.get(TRANSFORM), version, summary.getOrDefault(BUILD_ID, ""), inputs));
  }
}
