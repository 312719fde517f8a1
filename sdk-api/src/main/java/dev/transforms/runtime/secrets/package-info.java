/**
 * Secrets kept out of messages: {@link dev.transforms.runtime.secrets.SecretMasker} masks the secrets of the
 * loaded configurations in a text, {@link dev.transforms.runtime.secrets.CauseChain} prints an error and its
 * causes with them masked. Engines and other modules use both for what they print or log. The lowest layer of
 * the runtime: it imports nothing of it.
 *
 * <p><b>Compatibility.</b> Published, with the promise of {@link dev.transforms.runtime.spi}: a minor release
 * may add, and removes or changes a signature only after deprecating it.
 */
package dev.transforms.runtime.secrets;
