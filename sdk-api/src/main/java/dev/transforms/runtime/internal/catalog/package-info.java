/**
 * Catalogs of a configuration: starting them, resolving dataset paths through mounts, masking
 * secrets, the local warehouse file system.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.catalog;
