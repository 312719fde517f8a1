package dev.transforms.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The condition "a published class names no internal type in what callers see": its supertypes, and the
 * types (with their type arguments) of its public and protected fields, and of the parameters, results and
 * declared exceptions of its public and protected constructors and methods. A caller outside the SDK can
 * reach only what these signatures name, so an internal type in one of them would leak out of the
 * compatibility promise. A class that is not public, or nested in one that is not, is not published.
 */
final class InternalTypesInSignatures extends ArchCondition<JavaClass> {

  private final String[] internal;
  private final Set<String> allowed;

  /**
   * A condition that refuses internal types in published signatures.
   *
   * @param allowed members allowed to name an internal type, as {@code Class.member}
   * @param internal ArchUnit package patterns of the internal types
   */
  InternalTypesInSignatures(Set<String> allowed, String... internal) {
    super("name no class of " + String.join(", ", internal) + " in a public or protected signature");
    this.allowed = Set.copyOf(allowed);
    this.internal = internal.clone();
  }

  @Override
  public void check(JavaClass published, ConditionEvents events) {
    if (!isPublished(published)) {
      return;
    }
    List<JavaClass> supertypes = new ArrayList<>(published.getRawInterfaces());
    published.getRawSuperclass().ifPresent(supertypes::add);
    supertypes.forEach(type -> report(published.getName() + " extends or implements", type, events));
    for (JavaField field : published.getFields()) {
      if (isVisible(field.getModifiers())) {
        reportAll(published.getName() + "." + field.getName(), field.getType(), events);
      }
    }
    for (JavaCodeUnit member : published.getCodeUnits()) {
      String name = published.getName() + "." + member.getName();
      if (!isVisible(member.getModifiers()) || allowed.contains(name)) {
        continue;
      }
      member.getParameterTypes().forEach(type -> reportAll(name, type, events));
      reportAll(name, member.getReturnType(), events);
      member.getThrowsClause().getTypes().forEach(type -> report(name, type, events));
    }
  }

  private void reportAll(String where, JavaType type, ConditionEvents events) {
    type.getAllInvolvedRawTypes().forEach(raw -> report(where, raw, events));
  }

  private void report(String where, JavaClass type, ConditionEvents events) {
    JavaClass named = type.getBaseComponentType();
    if (JavaClass.Predicates.resideInAnyPackage(internal).test(named)) {
      String line = where + " names " + named.getName();
      events.add(SimpleConditionEvent.violated(named, line));
    }
  }

  private static boolean isPublished(JavaClass type) {
    return type.getModifiers().contains(JavaModifier.PUBLIC)
        && type.getEnclosingClass().map(InternalTypesInSignatures::isPublished).orElse(true);
  }

  private static boolean isVisible(Set<JavaModifier> modifiers) {
    return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
  }
}
