package dev.transforms.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Collection;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The condition "uses no class of these packages", reported as one line per pair of top-level classes
 * ({@code A imports B}), the way a reader counts imports: a nested class, a lambda or a second call to the
 * same class adds no line. The frozen baseline holds these lines, so it stays readable and only a new
 * pair of classes counts as a new violation.
 */
final class InternalImports extends ArchCondition<JavaClass> {

  private final String[] forbidden;
  private final SortedSet<String> found = new TreeSet<>();

  /**
   * A condition that refuses dependencies on classes in any of these packages.
   *
   * @param forbidden ArchUnit package patterns, such as {@code dev.transforms.cli..}
   */
  InternalImports(String... forbidden) {
    super("import no class of " + String.join(", ", forbidden));
    this.forbidden = forbidden.clone();
  }

  @Override
  public void init(Collection<JavaClass> allObjectsToTest) {
    found.clear();
  }

  @Override
  public void check(JavaClass origin, ConditionEvents events) {
    for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
      JavaClass target = dependency.getTargetClass().getBaseComponentType();
      if (JavaClass.Predicates.resideInAnyPackage(forbidden).test(target)) {
        found.add(topLevel(origin) + " imports " + topLevel(target));
      }
    }
  }

  @Override
  public void finish(ConditionEvents events) {
    for (String line : found) {
      events.add(SimpleConditionEvent.violated(line, line));
    }
  }

  private static String topLevel(JavaClass type) {
    String name = type.getName();
    int nested = name.indexOf('$');
    return nested < 0 ? name : name.substring(0, nested);
  }
}
