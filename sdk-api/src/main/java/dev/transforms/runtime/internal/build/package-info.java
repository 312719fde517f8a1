/**
 * Runs a plan: the build loop, the recovery of dead builds' leftovers, the audit of data
 * expectations and the cause chains of failures.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.build;
