/**
 * The mapping between Iceberg and Arrow schemas (internal), below the readers and writers that use it:
 * {@link dev.transforms.singlenode.internal.schema.ArrowSchemaMapping} is what the public
 * {@code dev.transforms.singlenode.arrow.ArrowSchemas} delegates to, {@code ArrowToIceberg} the Arrow to
 * Iceberg direction and {@code ArrowTypeFit} whether Arrow data fits a table's columns. Internal: it may
 * change in any release.
 */
package dev.transforms.singlenode.internal.schema;
