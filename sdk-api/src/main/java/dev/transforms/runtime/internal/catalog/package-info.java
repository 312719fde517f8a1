/**
 * Catalogs of a configuration: starting them, the shared-storage check, the local warehouse file system.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.catalog;
