package dev.transforms.testing;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.TransformsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension behind {@link TransformsTest}: creates the warehouse (with the embedded catalog, or the
 * catalogs of the configuration the annotation names), keeps it in the JUnit store so JUnit closes it
 * (and deletes its folder) when its scope ends, and fills {@link TestWarehouse} fields and parameters.
 * Misuse is reported as {@link ExtensionConfigurationException} naming the field or the configuration,
 * and the fix.
 */
public final class TransformsExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(TransformsExtension.class);
  private static final String WAREHOUSE = "warehouse";
  private static final String SPARK = "spark";
  private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?}");

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
    String config = context.getTestClass()
        .flatMap(c -> AnnotationSupport.findAnnotation(c, TransformsTest.class))
        .map(TransformsTest::config)
        .orElse("");
    Class<?> testClass = context.getRequiredTestClass();
    return owner.getStore(NAMESPACE).getOrComputeIfAbsent(WAREHOUSE, key -> {
      OwnedWarehouse owned = new OwnedWarehouse(config, testClass);
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

  /**
   * A warehouse in a temporary folder, deleted when JUnit closes the store entry; with the catalogs of a
   * configuration when the test class names one.
   */
  static final class OwnedWarehouse implements AutoCloseable {
    private final Path folder;
    final TestWarehouse warehouse;

    OwnedWarehouse(String config, Class<?> testClass) {
      try {
        folder = Files.createTempDirectory("transforms-test-");
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create a temporary warehouse folder", e);
      }
      Path location = folder.resolve("warehouse");
      try {
        Files.createDirectories(location);
        warehouse = config.isBlank() ? new TestWarehouse(location)
            : TestWarehouse.owning(configuration(config, testClass, location));
      } catch (IOException e) {
        delete(folder);
        throw new UncheckedIOException("Cannot create the warehouse folder " + location, e);
      } catch (RuntimeException e) {
        delete(folder);
        throw e;
      }
    }

    /** Reads the configuration a test class names, with the warehouse and relative paths in the folder. */
    private TransformsConfig configuration(String config, Class<?> testClass, Path location) {
      String annotation = "@TransformsTest(config = \"" + config + "\") on " + testClass.getSimpleName();
      String name = expand(config, annotation);
      Path file = configurationFile(name, testClass, annotation);
      Map<String, String> environment = new HashMap<>(System.getenv());
      environment.put(TransformsTest.WAREHOUSE_VARIABLE, location.toString());
      try {
        return TransformsConfig.load(Optional.of(file), Optional.of(location), environment, folder);
      } catch (ConfigurationException e) {
        throw new ExtensionConfigurationException(annotation + ": " + e.getMessage(), e);
      }
    }

    /** The file a name stands for: a classpath resource, copied into the folder, or a file. */
    private Path configurationFile(String name, Class<?> testClass, String annotation) {
      ClassLoader loader = Optional.ofNullable(Thread.currentThread().getContextClassLoader())
          .orElse(testClass.getClassLoader());
      URL resource = loader.getResource(name.startsWith("/") ? name.substring(1) : name);
      if (resource != null) {
        Path copy = folder.resolve(TransformsConfig.FILE_NAME);
        try (InputStream in = resource.openStream()) {
          Files.copy(in, copy);
        } catch (IOException e) {
          throw new ExtensionConfigurationException(annotation + ": cannot read resource " + resource, e);
        }
        return copy;
      }
      Path file = Path.of(name).toAbsolutePath();
      if (!Files.isRegularFile(file)) {
        throw new ExtensionConfigurationException(annotation + " names '" + name + "', which is neither a resource "
            + "on the test classpath (put it in src/test/resources) nor a file (" + file + ")");
      }
      return file;
    }

    /** Replaces {@code ${VAR}} and {@code ${VAR:-default}} in the configuration's name. */
    private static String expand(String text, String annotation) {
      Matcher matcher = REFERENCE.matcher(text);
      StringBuilder out = new StringBuilder();
      while (matcher.find()) {
        String value = System.getenv(matcher.group(1));
        if (value == null) {
          value = matcher.group(3);
        }
        if (value == null) {
          throw new ExtensionConfigurationException(annotation + " references ${" + matcher.group(1)
              + "}, which is not set; set it, or give a default: ${" + matcher.group(1) + ":-file.properties}");
        }
        matcher.appendReplacement(out, Matcher.quoteReplacement(value));
      }
      matcher.appendTail(out);
      return out.toString();
    }

    @Override
    public void close() throws IOException {
      try {
        warehouse.close();
      } finally {
        delete(folder);
      }
    }

    private static void delete(Path folder) {
      try (Stream<Path> paths = Files.walk(folder)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        // Already gone, or partly: the rest is left in the temporary folder.
      }
    }
  }
}
