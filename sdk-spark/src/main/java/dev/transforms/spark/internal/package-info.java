/**
 * Internal: what the Spark engine's packages share and what differs between Spark lines
 * ({@code ScalaCollections}, one per Scala version, in {@code sdk-spark/src/main/spark-X.Y/java}). May
 * change in any release.
 */
package dev.transforms.spark.internal;
