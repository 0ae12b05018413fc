package dev.stockade.api.kernel.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The installation's {@code config.*} values (spec: Installation values, Limits), validated at boot.
 *
 * @param publicUrl          the public address; must equal the address registered at the hub
 * @param ownerEmails        who may create organizations (besides the installation-owner token)
 * @param maxHeaderBytes     the largest request header block
 * @param dataDir            where the installation keeps its files (owner token, keys, embedded database)
 * @param tokenCacheTtl      how long a verified token is trusted without a database look-up: the revocation bound
 * @param defaultPublicUrl   what {@code stockade serve} derives from its bind address when publicUrl is not set
 */
@ConfigurationProperties("config")
public record PlatformConfig(
        @Nullable String publicUrl,
        @Nullable List<String> ownerEmails,
        @Bindable(defaultValue = "32768") int maxHeaderBytes,
        @Nullable Path dataDir,
        @Bindable(defaultValue = "10s") Duration tokenCacheTtl,
        @Nullable String defaultPublicUrl) {

    public PlatformConfig {
        ownerEmails = ownerEmails == null ? List.of()
                : ownerEmails.stream().map(e -> e.trim().toLowerCase(Locale.ROOT)).filter(e -> !e.isEmpty()).toList();
    }

    /** Every problem with these values, one line each; empty when they are usable. */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        if (publicUrl != null && !publicUrl.isBlank()) {
            try {
                URI u = URI.create(publicUrl);
                if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
                    out.add("config.publicUrl: `" + publicUrl + "` must be an absolute http(s) URL");
                }
            } catch (IllegalArgumentException e) {
                out.add("config.publicUrl: `" + publicUrl + "` is not a URL");
            }
        }
        for (String email : ownerEmails) {
            if (!email.matches("[^@\\s]+@[^@\\s]+")) {
                out.add("config.ownerEmails: `" + email + "` is not an email address");
            }
        }
        if (maxHeaderBytes < 1024 || maxHeaderBytes > 1 << 20) {
            out.add("config.maxHeaderBytes: " + maxHeaderBytes + " must be between 1024 and 1048576");
        }
        if (tokenCacheTtl.isNegative() || tokenCacheTtl.compareTo(Duration.ofMinutes(5)) > 0) {
            out.add("config.tokenCacheTtl: must be between 0s and 5m (it bounds how late a revocation takes effect)");
        }
        return out;
    }

    /** The public address without a trailing slash: {@code config.publicUrl}, else the serve command's default. */
    public String effectivePublicUrl() {
        String base = publicUrl != null && !publicUrl.isBlank() ? publicUrl
                : defaultPublicUrl != null ? defaultPublicUrl : "http://localhost:8080";
        return base.replaceAll("/+$", "");
    }

    /** The problem type base, {@code {public_url}/problems}. */
    public String problemBase() {
        return effectivePublicUrl() + "/problems";
    }

    public boolean isOwnerEmail(String email) {
        return email != null && ownerEmails.contains(email.toLowerCase(Locale.ROOT));
    }
}
