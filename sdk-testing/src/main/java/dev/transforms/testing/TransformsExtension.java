package dev.transforms.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension behind {@link TransformsTest}: creates the warehouse, keeps it in the JUnit store so
 * JUnit closes it (and deletes its folder) when its scope ends, and fills {@link TestWarehouse}
 * fields and parameters. Misuse is reported as {@link ExtensionConfigurationException} naming the
 * field and the fix.
 */
public final class TransformsExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(TransformsExtension.class);
  private static final String WAREHOUSE = "warehouse";
  private static final String SPARK = "spark";

  @Override
  public void beforeAll(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    TransformsTest.Scope scope = scope(context);
    for (Field field : warehouseFields(testClass)) {
      checkField(testClass, field, scope);
      if (Modifier.isStatic(field.getModifiers())) {
        set(field, null, warehouse(context));
      }
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    Object instance = context.getRequiredTestInstance();
    for (Field field : warehouseFields(instance.getClass())) {
      if (!Modifier.isStatic(field.getModifiers())) {
        set(field, instance, warehouse(context));
      }
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TestWarehouse.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    if (scope(context) == TransformsTest.Scope.PER_TEST && context.getTestMethod().isEmpty()) {
      throw new ExtensionConfigurationException("Parameter " + parameter.getParameter().getName() + " of "
          + parameter.getDeclaringExecutable().getName() + " asks for a TestWarehouse outside a test, but "
          + "@TransformsTest(warehouse = PER_TEST) creates one per test; take it as a test method parameter");
    }
    return warehouse(context);
  }

  /** The warehouse of the scope: per class in the class's store, per test in the test's store. */
  private static TestWarehouse warehouse(ExtensionContext context) {
    ExtensionContext owner = scope(context) == TransformsTest.Scope.PER_TEST && context.getTestMethod().isPresent()
        ? context : classContext(context);
    ExtensionContext.Store root = context.getRoot().getStore(NAMESPACE);
    return owner.getStore(NAMESPACE).getOrComputeIfAbsent(WAREHOUSE, key -> {
      OwnedWarehouse owned = new OwnedWarehouse();
      // One session for the whole run, in the root store so JUnit stops it last.
      owned.warehouse.useSparkStarter(() -> root.getOrComputeIfAbsent(SPARK, k -> new SharedSpark(),
          SharedSpark.class).session());
      return owned;
    }, OwnedWarehouse.class).warehouse;
  }

  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext current = context;
    while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
      current = current.getParent().get();
    }
    return current;
  }

  private static TransformsTest.Scope scope(ExtensionContext context) {
    return context.getTestClass()
        .flatMap(c -> AnnotationSupport.findAnnotation(c, TransformsTest.class))
        .map(TransformsTest::warehouse)
        .orElse(TransformsTest.Scope.PER_CLASS);
  }

  private static Iterable<Field> warehouseFields(Class<?> type) {
    return () -> Stream.<Class<?>>iterate(type, c -> c != null && c != Object.class, Class::getSuperclass)
        .flatMap(c -> Stream.of(c.getDeclaredFields()))
        .filter(f -> f.getType() == TestWarehouse.class)
        .iterator();
  }

  private static void checkField(Class<?> testClass, Field field, TransformsTest.Scope scope) {
    String name = "Field " + field.getName() + " of " + testClass.getSimpleName();
    if (Modifier.isFinal(field.getModifiers())) {
      throw new ExtensionConfigurationException(name + " is final, but @TransformsTest fills TestWarehouse fields; "
          + "remove final");
    }
    if (Modifier.isStatic(field.getModifiers()) && scope == TransformsTest.Scope.PER_TEST) {
      throw new ExtensionConfigurationException(name + " is static, but @TransformsTest(warehouse = PER_TEST) gives "
          + "each test its own warehouse; make it an instance field");
    }
  }

  private static void set(Field field, Object instance, TestWarehouse warehouse) {
    try {
      field.setAccessible(true);
      field.set(instance, warehouse);
    } catch (IllegalAccessException | RuntimeException e) {
      throw new ExtensionConfigurationException("Cannot fill field " + field.getName() + " of "
          + field.getDeclaringClass().getSimpleName() + ": " + e.getMessage(), e);
    }
  }

  /** A warehouse in a temporary folder, deleted when JUnit closes the store entry. */
  static final class OwnedWarehouse implements AutoCloseable {
    private final Path folder;
    final TestWarehouse warehouse;

    OwnedWarehouse() {
      try {
        folder = Files.createTempDirectory("transforms-test-");
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create a temporary warehouse folder", e);
      }
      warehouse = new TestWarehouse(folder.resolve("warehouse"));
    }

    @Override
    public void close() throws IOException {
      warehouse.close();
      try (Stream<Path> paths = Files.walk(folder)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
