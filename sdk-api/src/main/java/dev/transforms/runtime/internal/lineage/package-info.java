/**
 * OpenLineage events of builds (internal): {@link dev.transforms.runtime.internal.lineage.BuildLineage} is what
 * the build runner and the engines see; {@link dev.transforms.runtime.internal.config.LineageSettings} reads the
 * {@code openlineage.*} keys. The OpenLineage client is shaded into this module's jar and loaded only when
 * lineage is on. Internal: may change in any release.
 */
package dev.transforms.runtime.internal.lineage;
