/**
 * Spark transforms: the handles ({@link dev.transforms.spark.TableTransformInput},
 * {@link dev.transforms.spark.TableTransformOutput}, ...) and the context. {@code TransformsSparkCatalog},
 * {@code TransformsSessionExtensions} and {@code SparkEngineProvider} are public because Spark and the
 * service loader create them by name; they are not for users to call.
 */
package dev.transforms.spark;
