/**
 * Log4j plugins of the SDK, such as the converter that masks secrets in log lines.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.logging;
