package dev.transforms.api;

import dev.transforms.api.Handle;

/**
 * What every transform may ask of the build that runs it. Declare a parameter of this type (or of an
 * engine's richer context, such as {@code SparkTransformContext}) to receive it; it needs no annotation.
 */
@Handle(engine = Handle.ANY_ENGINE, role = Handle.Role.CONTEXT, artifact = "dev.transforms:sdk-api")
public interface TransformContext {

  /**
   * The transform's name, as shown in plans and reports.
   *
   * @return the transform name
   */
  String transformName();

  /**
   * The identifier of the running build, shared by every transform in it.
   *
   * @return the build id
   */
  String buildId();
}
