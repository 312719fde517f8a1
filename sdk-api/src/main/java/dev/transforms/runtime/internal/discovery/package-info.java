/**
 * Finding transforms: the annotation processor that validates them at compile time and writes
 * the index, and the reader of that index.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.discovery;
