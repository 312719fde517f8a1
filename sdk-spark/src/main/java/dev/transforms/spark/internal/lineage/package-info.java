/**
 * OpenLineage events of the Spark jobs inside a transform (internal): when {@code openlineage-spark} is on
 * the classpath and the build emits lineage, each Spark transform's jobs are heard by a listener of
 * {@code openlineage-spark} of their own, parented to the transform's run, whose events go out on the
 * build's queue. Internal: may change in any release.
 */
package dev.transforms.spark.internal.lineage;
