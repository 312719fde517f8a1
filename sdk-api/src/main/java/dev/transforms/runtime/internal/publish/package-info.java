/**
 * The publish protocol: staging branches and leases, the all-or-nothing publication of a
 * transform's outputs, discarding, and the crash points the crash tests stop at.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.publish;
