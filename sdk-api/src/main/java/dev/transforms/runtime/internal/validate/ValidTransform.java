package dev.transforms.runtime.internal.validate;

import dev.transforms.runtime.spi.IncrementalSpec;
import dev.transforms.runtime.spi.ParameterSpec;
import java.util.List;
import java.util.Optional;

/**
 * What the validator makes of a valid transform method, before it is bound to a {@code Method}.
 *
 * @param name the transform name
 * @param description the description
 * @param engine the engine that runs it
 * @param engineArtifact the engine module's Maven coordinates
 * @param parameters the validated parameters
 * @param incremental the incremental options
 */
public record ValidTransform(
    String name,
    String description,
    String engine,
    String engineArtifact,
    List<ParameterSpec> parameters,
    Optional<IncrementalSpec> incremental) {}
