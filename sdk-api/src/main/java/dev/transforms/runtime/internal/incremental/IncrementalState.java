package dev.transforms.runtime.internal.incremental;

import dev.transforms.runtime.DatasetPath;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a successful build leaves on each output so the next build can tell what it already consumed:
 * the transform, its semantic version, the build id, and the snapshot id of every input it read.
 *
 * <p>The state is stored as table properties of the output, written only by the commit that
 * publishes the build (the same metadata commit that moves the output's {@code main}), so a build that
 * died or failed never leaves state behind, and maintenance (snapshot expiry, compaction) never loses
 * it. Keys: {@value #TRANSFORM}, {@value #SEMANTIC_VERSION}, {@value #BUILD_ID},
 * {@value #INPUT_PREFIX}{@code PATH} with the snapshot id, or {@value #NO_SNAPSHOT} for an input that
 * had no snapshot yet, {@value #CODE} with the fingerprint of the code and settings the build ran, and
 * {@value #FILES_PREFIX}{@code PATH} with the fingerprint of each file input's files. The publisher adds {@value #SNAPSHOT_ID} and {@value #SEQUENCE_NUMBER}, the
 * output's {@code main} as published, so a later build can tell whether the output was rolled back.
 *
 * <p>Snapshots an output receives from a build carry {@value #SUMMARY_BUILD_ID} and
 * {@value #SUMMARY_TRANSFORM} in their summary: where each snapshot came from, never trusted as state.
 *
 * @param transform the transform's name
 * @param semanticVersion the semantic version it ran with
 * @param buildId the build that wrote it
 * @param inputSnapshots the snapshot id each input was read at; a missing value means the input was empty
 * @param code the fingerprint of the transform's code and settings ({@link CodeFingerprint}); empty when
 *     not known (a state stored by an earlier version of the SDK, or a load)
 * @param files the fingerprint of each file input's files ({@link FileFingerprint}), by path
 */
public record IncrementalState(
    String transform, int semanticVersion, String buildId, Map<DatasetPath, OptionalLong> inputSnapshots,
    String code, Map<DatasetPath, String> files) {

  /** Prefix of every state property. */
  public static final String PREFIX = "transforms.state.";
  /** Property of the transform name. */
  public static final String TRANSFORM = PREFIX + "transform";
  /** Property of the semantic version. */
  public static final String SEMANTIC_VERSION = PREFIX + "semantic-version";
  /** Property of the build id. */
  public static final String BUILD_ID = PREFIX + "build-id";
  /** Prefix of the properties of input snapshot ids. */
  public static final String INPUT_PREFIX = PREFIX + "input.";
  /** Property of the fingerprint of the transform's code and settings. */
  public static final String CODE = PREFIX + "code";
  /** Prefix of the properties of file inputs' fingerprints. */
  public static final String FILES_PREFIX = PREFIX + "files.";
  /** Property of the output's {@code main} snapshot as the build published it. */
  public static final String SNAPSHOT_ID = PREFIX + "snapshot-id";
  /** Property of the sequence number of that snapshot. */
  public static final String SEQUENCE_NUMBER = PREFIX + "sequence-number";
  /** The value stored for an input, or an output, that had no snapshot. */
  public static final String NO_SNAPSHOT = "none";

  /** Summary key naming the build that committed a snapshot (provenance only). */
  public static final String SUMMARY_BUILD_ID = "transforms.build-id";
  /** Summary key naming the transform that committed a snapshot (provenance only). */
  public static final String SUMMARY_TRANSFORM = "transforms.transform";

  /**
   * Copies the map so the state stays immutable.
   *
   * @param transform the transform name
   * @param semanticVersion the semantic version
   * @param buildId the build id
   * @param inputSnapshots input snapshot ids by path
   * @param code the code fingerprint, empty when not known
   * @param files file inputs' fingerprints by path
   */
  public IncrementalState {
    inputSnapshots = Map.copyOf(inputSnapshots);
    code = code == null ? "" : code;
    files = Map.copyOf(files);
  }

  /**
   * A state without code or file fingerprints.
   *
   * @param transform the transform name
   * @param semanticVersion the semantic version
   * @param buildId the build id
   * @param inputSnapshots input snapshot ids by path
   */
  public IncrementalState(String transform, int semanticVersion, String buildId,
      Map<DatasetPath, OptionalLong> inputSnapshots) {
    this(transform, semanticVersion, buildId, inputSnapshots, "", Map.of());
  }

  /**
   * The table properties that store this state (without the output's own snapshot, which the
   * publisher adds).
   *
   * @return properties to set on an output when publishing
   */
  public Map<String, String> toProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(TRANSFORM, transform);
    properties.put(SEMANTIC_VERSION, Integer.toString(semanticVersion));
    properties.put(BUILD_ID, buildId);
    inputSnapshots.forEach((path, id) ->
        properties.put(INPUT_PREFIX + path, id.isPresent() ? Long.toString(id.getAsLong()) : NO_SNAPSHOT));
    if (!code.isEmpty()) {
      properties.put(CODE, code);
    }
    files.forEach((path, fingerprint) -> properties.put(FILES_PREFIX + path, fingerprint));
    return properties;
  }

  /**
   * The snapshot summary properties that tell which build and transform committed a snapshot.
   *
   * @param transform the transform's name
   * @param buildId the build's id
   * @return the summary properties
   */
  public static Map<String, String> provenance(String transform, String buildId) {
    return Map.of(SUMMARY_TRANSFORM, transform, SUMMARY_BUILD_ID, buildId);
  }

  /**
   * Reads the state stored in an output's table properties.
   *
   * @param properties the table's properties
   * @return the state, or empty if the table carries none
   */
  public static Optional<IncrementalState> fromProperties(Map<String, String> properties) {
    if (properties == null || !properties.containsKey(TRANSFORM)) {
      return Optional.empty();
    }
    Map<DatasetPath, OptionalLong> inputs = new LinkedHashMap<>();
    Map<DatasetPath, String> files = new LinkedHashMap<>();
    properties.forEach((key, value) -> {
      if (key.startsWith(INPUT_PREFIX)) {
        DatasetPath path = DatasetPath.of(key.substring(INPUT_PREFIX.length()));
        inputs.put(path, parseSnapshot(value));
      } else if (key.startsWith(FILES_PREFIX)) {
        files.put(DatasetPath.of(key.substring(FILES_PREFIX.length())), value);
      }
    });
    int version;
    try {
      version = Integer.parseInt(properties.getOrDefault(SEMANTIC_VERSION, "0"));
    } catch (NumberFormatException e) {
      version = 0;
    }
    return Optional.of(new IncrementalState(properties.get(TRANSFORM), version,
        properties.getOrDefault(BUILD_ID, ""), inputs, properties.getOrDefault(CODE, ""), files));
  }

  /**
   * Reads a stored snapshot id.
   *
   * @param value the stored value, a number or {@value #NO_SNAPSHOT}
   * @return the id, or empty for {@value #NO_SNAPSHOT}, a missing or an unreadable value
   */
  public static OptionalLong parseSnapshot(String value) {
    if (value == null || NO_SNAPSHOT.equals(value)) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(value));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
