package dev.transforms.runtime.spi;

import java.time.Duration;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The lineage of one running transform, as an engine sees it: the OpenLineage job and run the
 * transform's own events name, the build's run above it, and where an engine's own OpenLineage events
 * (those of Spark jobs) go so that they are sent with the build's, on its queue and under its deadline.
 *
 * @param namespace the job namespace
 * @param jobName the transform's job name (the transform's name)
 * @param runId the transform run's id
 * @param buildJobName the build's job name
 * @param buildRunId the build run's id
 * @param timeout how long the end of the build waits for its events; an engine waits no longer for its own
 * @param events takes an OpenLineage run event as JSON; never blocks, never throws
 */
public record RunLineage(String namespace, String jobName, UUID runId, String buildJobName, UUID buildRunId,
    Duration timeout, Consumer<String> events) {}
