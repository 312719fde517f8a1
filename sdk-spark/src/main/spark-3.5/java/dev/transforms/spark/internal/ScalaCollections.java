package dev.transforms.spark.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import scala.collection.JavaConverters;

/**
 * Scala collections as Java ones, on Scala 2.12 (the Spark 3.5 line): through
 * {@code scala.collection.JavaConverters}, which 2.13 deprecates for {@code scala.jdk}.
 */
public final class ScalaCollections {

  private ScalaCollections() {}

  /**
   * @param seq a Scala sequence
   * @param <T> its elements
   * @return a Java view of it
   */
  public static <T> List<T> list(scala.collection.Seq<T> seq) {
    return JavaConverters.seqAsJavaList(seq);
  }

  /**
   * @param set a Scala set
   * @param <T> its elements
   * @return a Java view of it
   */
  public static <T> Set<T> set(scala.collection.Set<T> set) {
    return JavaConverters.setAsJavaSet(set);
  }

  /**
   * @param map a Scala map
   * @param <K> its keys
   * @param <V> its values
   * @return a Java view of it
   */
  public static <K, V> Map<K, V> map(scala.collection.Map<K, V> map) {
    return JavaConverters.mapAsJavaMap(map);
  }

  /**
   * @param map a Java map
   * @param <K> its keys
   * @param <V> its values
   * @return an immutable Scala copy of it, as Spark's error parameters take one
   */
  public static <K, V> scala.collection.immutable.Map<K, V> immutableMap(Map<K, V> map) {
    scala.collection.immutable.Map<K, V> copy = scala.collection.immutable.Map$.MODULE$.empty();
    for (Map.Entry<K, V> entry : map.entrySet()) {
      copy = copy.updated(entry.getKey(), entry.getValue());
    }
    return copy;
  }
}
