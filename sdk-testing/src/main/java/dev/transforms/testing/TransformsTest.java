package dev.transforms.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a JUnit 5 test class a temporary warehouse, with the embedded catalog or the catalogs of a
 * configuration, and fills its {@link TestWarehouse} fields and parameters.
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
 *
 * @TransformsTest(config = "two-catalogs.properties")
 * class AcrossCatalogsTest {
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

  /**
   * The configuration of the warehouse: a classpath resource (such as {@code "two-catalogs.properties"}
   * in {@code src/test/resources}) or a file, in the format of {@code transforms.properties}. Empty for
   * the embedded catalog alone.
   *
   * <p>The name may reference environment variables, {@code ${VAR}} or {@code ${VAR:-default}}, to pick
   * a configuration per environment; so may the file's values, as in any configuration. Whatever the
   * file says, the warehouse folder is the test's temporary one, and the file's values may place
   * catalogs inside it with {@code ${TEST_WAREHOUSE}}. The extension owns everything it starts: it
   * closes the catalogs, drops the tables the tests created or built in catalogs that outlive the
   * folder, deletes the folder, and stops the shared Spark session when the run ends.
   *
   * @return a resource or file name, or an empty string for the embedded catalog
   */
  String config() default "";

  /**
   * The environment variable that holds the test's temporary warehouse folder while its configuration
   * is read, for catalogs that should live inside it.
   */
  String WAREHOUSE_VARIABLE = "TEST_WAREHOUSE";

  /** How long a warehouse lives. */
  enum Scope {
    /** One warehouse for all tests of a class; tables persist from test to test. */
    PER_CLASS,
    /** A fresh warehouse for each test. */
    PER_TEST
  }
}
