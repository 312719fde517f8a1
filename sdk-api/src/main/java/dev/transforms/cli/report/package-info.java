/**
 * The build as a page ({@code transforms build --report FILE.html}) and the record of each
 * transform's last build that {@code transforms graph} shows.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.cli.report;
