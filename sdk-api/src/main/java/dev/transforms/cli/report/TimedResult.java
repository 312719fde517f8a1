package dev.transforms.cli.report;

import dev.transforms.runtime.TransformResult;
import java.time.Instant;

/**
 * A transform's result with the wall-clock instants it started and finished, as the command line saw
 * them, for the timeline of the build page.
 *
 * @param result what happened
 * @param started when the transform started
 * @param finished when it finished
 */
public record TimedResult(TransformResult result, Instant started, Instant finished) {}
