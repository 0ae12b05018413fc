package dev.stockade.api.tenancy;

import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.identity.ApiTokenRepository;
import dev.stockade.api.kernel.identity.ApiTokenRow;
import dev.stockade.api.kernel.secrets.DataFiles;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.runtime.event.annotation.EventListener;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On the first start of an empty database, mints the installation owner's API token (able to create organizations),
 * writes it to {@code <dataDir>/owner-token} (mode 0600) and says once, on standard output, how to sign in with it.
 * The token itself is never printed or logged.
 */
@Singleton
record OwnerToken(ApiTokenRepository tokens, TokenService service, PlatformConfig config) {
    private static final Logger LOG = LoggerFactory.getLogger(OwnerToken.class);

    @EventListener
    void onStartup(StartupEvent event) throws IOException {
        if (tokens.existsByOwnerTrue()) {
            return;
        }
        TokenService.Minted<ApiTokenRow> owner;
        try {
            owner = service.createOwnerToken();
        } catch (RuntimeException raced) {
            LOG.info("another replica created the installation owner token");
            return;
        }
        Path file = DataFiles.dir(config, ".").resolve("owner-token").normalize();
        DataFiles.writePrivate(file, owner.token() + "\n");
        System.out.println("Stockade: first start. The installation owner's API token is in " + file + " (mode 0600).");
        System.out.println("  Sign in the CLI:  ./stockade login --url " + config.effectivePublicUrl()
                + " --token-file " + file);
        System.out.println("  Or with curl:     curl -H \"Authorization: Bearer $(cat " + file + ")\" "
                + config.effectivePublicUrl() + "/v1/auth/me");
    }
}
