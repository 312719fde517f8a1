/**
 * The rules a transform's declaration must follow, shared by the annotation processor and
 * reflection.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.validate;
