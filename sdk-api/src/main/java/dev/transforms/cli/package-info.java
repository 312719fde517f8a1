/**
 * The {@code transforms} command line, a class per command (list, plan, build, show, load, maintain, health,
 * completion; graph comes from sdk-graph as a command extension). Run it with the
 * {@code transforms} launcher; it calls {@link dev.transforms.Transforms} for builds.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.cli;
