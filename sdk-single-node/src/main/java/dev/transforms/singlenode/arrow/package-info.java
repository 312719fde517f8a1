/**
 * Arrow data to and from Iceberg tables: schemas, rows and writers for use in single-node
 * transforms and tests.
 */
package dev.transforms.singlenode.arrow;
