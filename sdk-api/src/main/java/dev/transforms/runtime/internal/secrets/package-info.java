/**
 * Secrets kept out of messages (internal): {@link dev.transforms.runtime.internal.secrets.SecretMasker}
 * masks the secrets of the loaded configurations, {@link dev.transforms.runtime.internal.secrets.CauseChain}
 * prints an error and its causes with them masked. The lowest layer of the runtime: it imports nothing of it.
 * Internal: it may change in any release.
 */
package dev.transforms.runtime.internal.secrets;
