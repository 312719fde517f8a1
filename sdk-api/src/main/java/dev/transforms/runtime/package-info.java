/**
 * The runtime as users drive it from Java: {@link dev.transforms.Transforms} builds
 * transforms under a {@link dev.transforms.runtime.TransformsConfig}, and the results say what each
 * transform did ({@link dev.transforms.runtime.BuildReport}, {@link dev.transforms.runtime.TransformResult},
 * {@link dev.transforms.runtime.CheckResult}). Everything under {@code dev.transforms.runtime.internal} is
 * the machinery behind it.
 */
package dev.transforms.runtime;
