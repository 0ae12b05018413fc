package dev.stockade.api.kernel.secrets;

import com.google.crypto.tink.Aead;

/**
 * The key that encrypts the data keys of sealed secrets. The default lives in a file of the data directory
 * ({@link FileKeyEncryptionKey}); a KMS-backed one replaces the bean without touching callers.
 */
public interface KeyEncryptionKey {
    /** The key-encryption AEAD; never returns key material. */
    Aead aead();
}
