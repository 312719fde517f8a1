package dev.transforms.runtime.internal.discovery;

import dev.transforms.api.InvalidTransformException;
import dev.transforms.api.Transform;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.runtime.spi.TransformSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds transforms: those the annotation processor recorded in {@value #RESOURCE} on the classpath,
 * and those of classes named directly. Each is validated again by reflection before it is returned.
 */
public final class TransformIndex {

  /** The classpath resource the annotation processor writes. */
  public static final String RESOURCE = "META-INF/transforms/index";

  private TransformIndex() {}

  /**
   * Every transform recorded in the index files on a class loader's classpath.
   *
   * @param loader the class loader to search
   * @return the transforms, in index order
   * @throws InvalidTransformException if an indexed method is missing or no longer valid
   */
  public static List<TransformSpec> discover(ClassLoader loader) {
    Set<String> entries = new TreeSet<>();
    try {
      Enumeration<URL> resources = loader.getResources(RESOURCE);
      while (resources.hasMoreElements()) {
        URL url = resources.nextElement();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(url.openStream(), StandardCharsets.UTF_8))) {
          reader.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(entries::add);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + RESOURCE, e);
    }
    List<TransformSpec> specs = new ArrayList<>();
    for (String entry : entries) {
      int hash = entry.indexOf('#');
      String className = entry.substring(0, hash);
      String methodName = entry.substring(hash + 1);
      Class<?> type = load(loader, className);
      boolean found = false;
      for (Method method : type.getDeclaredMethods()) {
        if (method.getName().equals(methodName) && method.isAnnotationPresent(Transform.class)) {
          specs.add(ReflectiveModels.transformOf(method));
          found = true;
        }
      }
      if (!found) {
        throw new InvalidTransformException("The transform index lists " + entry
            + ", but that class has no such @Transform method; rebuild the project");
      }
    }
    return specs;
  }

  /**
   * The transforms of classes named directly, such as on the command line.
   *
   * @param loader the class loader to load them with
   * @param classNames fully qualified class names
   * @return every {@code @Transform} method of those classes
   * @throws InvalidTransformException if a class is missing, has no transform, or any is invalid
   */
  public static List<TransformSpec> ofClasses(ClassLoader loader, List<String> classNames) {
    List<TransformSpec> specs = new ArrayList<>();
    for (String className : classNames) {
      specs.addAll(ReflectiveModels.transformsOf(load(loader, className)));
    }
    return specs;
  }

  private static Class<?> load(ClassLoader loader, String className) {
    try {
      return Class.forName(className, false, loader);
    } catch (ClassNotFoundException e) {
      throw new InvalidTransformException("Transform class " + className + " is not on the classpath", e);
    }
  }
}
