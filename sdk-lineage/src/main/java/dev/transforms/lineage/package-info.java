/**
 * OpenLineage events of builds: {@link dev.transforms.lineage.OpenLineageProvider} starts, for each build
 * with {@code openlineage.enabled=true}, the events of the pipeline's run and of each transform's run under
 * it, and sends them on threads of its own through the OpenLineage client's transports. The client, with
 * its Jackson and HTTP client, is shaded into this module's jar under {@code dev.transforms.shaded}, so that
 * it never meets Spark's. Add the module to a pipeline to turn lineage on; {@code sdk-api} holds only the
 * settings and the SPI ({@link dev.transforms.runtime.spi.LineageProvider}).
 */
package dev.transforms.lineage;
