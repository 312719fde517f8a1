package dev.transforms.spark.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Scala collections as Java ones, on Scala 2.13 (the Spark 4.1 line): through
 * {@code scala.jdk.javaapi.CollectionConverters}, which Scala 2.12 does not have.
 */
public final class ScalaCollections {

  private ScalaCollections() {}

  /**
   * @param seq a Scala sequence
   * @param <T> its elements
   * @return a Java view of it
   */
  public static <T> List<T> list(scala.collection.Seq<T> seq) {
    return CollectionConverters.asJava(seq);
  }

  /**
   * @param set a Scala set
   * @param <T> its elements
   * @return a Java view of it
   */
  public static <T> Set<T> set(scala.collection.Set<T> set) {
    return CollectionConverters.asJava(set);
  }

  /**
   * @param map a Scala map
   * @param <K> its keys
   * @param <V> its values
   * @return a Java view of it
   */
  public static <K, V> Map<K, V> map(scala.collection.Map<K, V> map) {
    return CollectionConverters.asJava(map);
  }

  /**
   * @param map a Java map
   * @param <K> its keys
   * @param <V> its values
   * @return an immutable Scala copy of it, as Spark's error parameters take one
   */
  public static <K, V> scala.collection.immutable.Map<K, V> immutableMap(Map<K, V> map) {
    return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(map));
  }
}
