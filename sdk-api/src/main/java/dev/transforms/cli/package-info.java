/**
 * The {@code transforms} command line: list, plan, build, show and load. Run it with the
 * {@code transforms} launcher; it calls {@link dev.transforms.runtime.Transforms} for builds.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.cli;
