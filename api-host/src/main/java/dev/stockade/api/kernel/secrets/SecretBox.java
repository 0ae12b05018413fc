package dev.stockade.api.kernel.secrets;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.aead.KmsEnvelopeAead;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;

/**
 * Envelope encryption of secrets at rest: each value gets its own AES-256-GCM data key, itself encrypted by the
 * {@link KeyEncryptionKey}. The context (what the secret is for, such as a row id) is bound as associated data, so
 * a sealed value copied to another row does not open.
 */
@Singleton
public final class SecretBox {
    private final Aead envelope;

    public SecretBox(KeyEncryptionKey kek) {
        try {
            this.envelope = KmsEnvelopeAead.create(PredefinedAeadParameters.AES256_GCM, kek.aead());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("envelope encryption is unavailable", e);
        }
    }

    public String seal(String plaintext, String context) {
        try {
            byte[] ct = envelope.encrypt(plaintext.getBytes(StandardCharsets.UTF_8), context.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(ct);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("sealing a secret failed", e);
        }
    }

    public String open(String sealed, String context) {
        try {
            byte[] pt = envelope.decrypt(Base64.getDecoder().decode(sealed), context.getBytes(StandardCharsets.UTF_8));
            return new String(pt, StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new UnreadableSecret();
        }
    }
}
