package dev.stockade.api.enrollment;

import dev.stockade.api.kernel.config.HubConfig;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.secrets.DataFiles;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.exceptions.ConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The setup code that opens the setup screen and the activation device flow. Generated once (32 URL-safe characters)
 * into the secret {@code <release>-hub-setup}, i.e. {@code <dataDir>/secrets/stockade-hub-setup/<hub.setup.key>}
 * (mode 0600), and kept across restarts; or read from {@code hub.setup.existingSecret}, which must hold at least 16
 * characters. It is never logged or printed: the first start prints where it is. Only while the setup screen is
 * offered (no {@code hub.fleetId}, {@code hub.setup.enabled}, not {@code --dev-hub}) is a code needed at all. Made
 * at start, so a supplied code that is too short refuses the start.
 */
@Context
public class SetupCode {
    /** The release name the generated secret is named after ({@code <release>-hub-setup}). */
    static final String GENERATED_SECRET = "stockade-hub-setup";
    static final int MIN_LENGTH = 16;
    private static final Logger LOG = LoggerFactory.getLogger(SetupCode.class);

    private final boolean offered;
    private final byte[] codeHash;

    public SetupCode(HubConfig hub, PlatformConfig platform) {
        this.offered = !hub.hasValues() && hub.setup().enabled() && !hub.dev();
        this.codeHash = offered ? sha256(load(hub.setup(), platform)) : null;
    }

    /** Whether the setup screen and the activation device flow are served (no hub values, setup enabled, no dev hub). */
    public boolean offered() {
        return offered;
    }

    /** Compares in constant time: the SHA-256 of both, so neither length nor a common prefix shows in timing. */
    public boolean matches(String candidate) {
        if (!offered || candidate == null) {
            return false;
        }
        return MessageDigest.isEqual(codeHash, sha256(candidate.trim()));
    }

    private static String load(HubConfig.Setup setup, PlatformConfig platform) {
        boolean supplied = !setup.existingSecret().isBlank();
        String secret = supplied ? setup.existingSecret() : GENERATED_SECRET;
        if (!secret.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,252}") || !setup.key().matches("[A-Za-z0-9._-]{1,253}")
                || setup.key().startsWith("..")) {
            throw new ConfigurationException("hub.setup.existingSecret / hub.setup.key: not a secret or key name");
        }
        try {
            Path file = DataFiles.dir(platform, "secrets").resolve(secret).resolve(setup.key());
            Optional<String> existing = read(file);
            if (supplied) {
                String code = existing.orElseThrow(() -> new ConfigurationException("hub.setup.existingSecret: the"
                        + " secret `" + secret + "` has no key `" + setup.key() + "` (expected the file " + file + ")"));
                if (code.length() < MIN_LENGTH) {
                    throw new ConfigurationException("hub.setup.existingSecret: the setup code in " + file + " has "
                            + code.length() + " characters; at least " + MIN_LENGTH + " are required");
                }
                return code;
            }
            if (existing.isPresent() && existing.get().length() >= MIN_LENGTH) {
                return existing.get();
            }
            return generate(file, platform);
        } catch (IOException e) {
            throw new ConfigurationException("the setup code could not be read or written: " + e.getMessage());
        }
    }

    private static String generate(Path file, PlatformConfig platform) throws IOException {
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        String code = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        Files.createDirectories(file.getParent());
        DataFiles.writePrivate(file, code + "\n");
        System.out.println("Stockade: not enrolled with a hub yet. The setup code is in " + file + " (mode 0600).");
        System.out.println("  Open " + platform.effectivePublicUrl() + "/setup and enter it (or start the device flow"
                + " with POST " + platform.effectivePublicUrl() + "/v1/installation/activation).");
        LOG.info("setup code generated into {}", file);
        return code;
    }

    private static Optional<String> read(Path file) throws IOException {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8).trim());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
