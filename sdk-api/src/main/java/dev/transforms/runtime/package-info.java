/**
 * What the runtime takes and returns: the configuration ({@link dev.transforms.runtime.TransformsConfig}),
 * dataset paths and the tables they resolve to, and the results that say what each transform did
 * ({@link dev.transforms.runtime.BuildReport}, {@link dev.transforms.runtime.TransformResult},
 * {@link dev.transforms.runtime.CheckResult}). {@link dev.transforms.Transforms} builds with them. Every layer
 * of the runtime imports this package and it imports none of them (only {@code runtime.internal.config} and
 * {@code runtime.secrets}, below it); everything under {@code dev.transforms.runtime.internal} is the
 * machinery.
 */
package dev.transforms.runtime;
