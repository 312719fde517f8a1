/**
 * The contract between the runtime and an engine (Spark, single node): a transform run with its
 * bound datasets, output staging, and the service interface engines register with.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.engine;
