package dev.transforms.api;

import java.lang.annotation.Annotation;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a type that transform methods may declare as a parameter, and says which engine provides it.
 *
 * <p>Engines put this on their handle interfaces ({@code TableTransformInput}, {@code IcebergOutput},
 * {@code SparkTransformContext}...). The validator reads it, by reflection at run time and from the
 * type element at compile time, so {@code sdk-api} never needs to know an engine's classes.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Handle {

  /**
   * The engine that provides instances of this type, such as {@code "spark"}, or {@link #ANY_ENGINE}
   * for an engine-neutral type every engine provides.
   *
   * @return the engine name
   */
  String engine();

  /**
   * What the parameter is to the transform.
   *
   * @return the role
   */
  Role role();

  /**
   * The path annotations a parameter of this type may carry: {@code TableInput.class},
   * {@code Input.class}, {@code TableOutput.class} or {@code Output.class}. Empty for contexts.
   *
   * @return the accepted path annotations
   */
  Class<? extends Annotation>[] paths() default {};

  /**
   * The Maven coordinates of the module that provides the engine, named in the error shown when the
   * engine is missing at run time.
   *
   * @return {@code groupId:artifactId}
   */
  String artifact();

  /** An {@link #engine()} value that every engine accepts. */
  String ANY_ENGINE = "*";

  /** What a handle is to the transform. */
  enum Role {
    /** The build's context; takes no path annotation. */
    CONTEXT,
    /** A dataset the transform reads. */
    INPUT,
    /** A dataset the transform writes. */
    OUTPUT
  }
}
