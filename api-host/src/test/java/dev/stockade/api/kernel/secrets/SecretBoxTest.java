package dev.stockade.api.kernel.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.security.GeneralSecurityException;
import org.junit.jupiter.api.Test;

/**
 * Sealed secrets open only with the key that sealed them and for the context they were sealed for; another replica's
 * key gives the one exception the error path names ({@code UnreadableSecretProblemTest}).
 */
class SecretBoxTest {
    private static KeyEncryptionKey freshKey() throws GeneralSecurityException {
        AeadConfig.register();
        Aead aead = KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM).getPrimitive(Aead.class);
        return () -> aead;
    }

    @Test
    void aSecretOpensWithItsKeyAndContextOnly() throws GeneralSecurityException {
        SecretBox mine = new SecretBox(freshKey());
        String sealed = mine.seal("hub credential", "installation");
        assertThat(mine.open(sealed, "installation")).isEqualTo("hub credential");
        assertThatThrownBy(() -> mine.open(sealed, "another row")).isInstanceOf(UnreadableSecret.class);
        SecretBox otherReplica = new SecretBox(freshKey());
        assertThatThrownBy(() -> otherReplica.open(sealed, "installation")).isInstanceOf(UnreadableSecret.class)
                .hasMessageContaining("same encryption key").hasMessageNotContaining("hub credential");
    }
}
