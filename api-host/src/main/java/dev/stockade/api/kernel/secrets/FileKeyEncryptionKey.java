package dev.stockade.api.kernel.secrets;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stockade.api.kernel.config.PlatformConfig;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;

/** The key-encryption key as a Tink AES-256-GCM keyset in {@code <dataDir>/keys/kek.json} (mode 0600), made on first use. */
@Singleton
public final class FileKeyEncryptionKey implements KeyEncryptionKey {
    private final Aead aead;

    public FileKeyEncryptionKey(PlatformConfig config) {
        try {
            AeadConfig.register();
            Path file = DataFiles.dir(config, "keys").resolve("kek.json");
            KeysetHandle handle;
            if (Files.exists(file)) {
                handle = TinkJsonProtoKeysetFormat.parseKeyset(Files.readString(file, StandardCharsets.UTF_8),
                        InsecureSecretKeyAccess.get());
            } else {
                handle = KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM);
                DataFiles.writePrivate(file,
                        TinkJsonProtoKeysetFormat.serializeKeyset(handle, InsecureSecretKeyAccess.get()));
            }
            this.aead = handle.getPrimitive(RegistryConfiguration.get(), Aead.class);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the key-encryption key in the data directory is unusable", e);
        } catch (IOException e) {
            throw new UncheckedIOException("the key-encryption key could not be read or written", e);
        }
    }

    @Override
    public Aead aead() {
        return aead;
    }
}
