/**
 * Whether a build can be incremental: the state recorded on outputs and the decision made
 * from it.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.incremental;
