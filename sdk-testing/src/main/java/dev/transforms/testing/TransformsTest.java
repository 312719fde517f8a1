package dev.transforms.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a JUnit 5 test class a temporary warehouse with the embedded catalog, and fills its
 * {@link TestWarehouse} fields and parameters.
 *
 * <p>The warehouse lives for the whole class by default, or for each test with
 * {@code @TransformsTest(warehouse = Scope.PER_TEST)}. One SparkSession serves the whole test JVM: it
 * starts the first time a Spark transform is built and JUnit stops it when the run ends.
 *
 * <pre>{@code
 * @TransformsTest
 * class MyTransformTest {
 *   TestWarehouse warehouse;
 *   ...
 * }
 * }</pre>
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(TransformsExtension.class)
public @interface TransformsTest {

  /**
   * How long a warehouse lives.
   *
   * @return the scope, one warehouse per test class by default
   */
  Scope warehouse() default Scope.PER_CLASS;

  /** How long a warehouse lives. */
  enum Scope {
    /** One warehouse for all tests of a class; tables persist from test to test. */
    PER_CLASS,
    /** A fresh warehouse for each test. */
    PER_TEST
  }
}
