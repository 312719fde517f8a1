/**
 * Runs a plan: the build loop, the scheduler, the tables of each transform, and the audit of data
 * expectations.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.build;
