package dev.stockade.proxy;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;

/**
 * A secret the proxy injects into intercepted requests. The secret never appears in
 * {@link #toString()}, logs, audit lines or error messages.
 *
 * @param id           identifier carried by the sentinel {@code __platform_cred:<id>__}
 * @param name         credential name, as policies bind it
 * @param secret       the secret itself
 * @param domains      hosts the secret may be sent to: exact names or {@code *.suffix}
 * @param headerFormat header to set when the policy binds the credential, e.g.
 *                     {@code Authorization: Bearer {secret}}; {@code null} when none
 */
public record Credential(UUID id, String name, String secret, List<String> domains, String headerFormat) {

    /** The sentinel prefix agents see in place of a secret. */
    public static final String SENTINEL_PREFIX = "__platform_cred:";

    public Credential {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(secret, "secret");
        domains = List.copyOf(domains);
        if (headerFormat != null && headerName(headerFormat) == null) {
            throw new IllegalArgumentException("header format of credential `" + name + "` must be `Name: value`");
        }
    }

    /**
     * The identifier the platform derives from a credential's name (the compiler's sentinel for an
     * {@code envVarKey} uses the same), for credential files that give no explicit id.
     */
    public static UUID idFor(String name) {
        return UUID.nameUUIDFromBytes(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The sentinel that stands for this credential. */
    public String sentinel() {
        return SENTINEL_PREFIX + id + "__";
    }

    /** Whether the secret may be sent to {@code host} (lower case, no trailing dot). */
    public boolean coversHost(String host) {
        for (String d : domains) {
            String p = d.toLowerCase(Locale.ROOT);
            if (p.startsWith("*.") ? host.endsWith(p.substring(1)) && host.length() > p.length() - 1 : host.equals(p)) {
                return true;
            }
        }
        return false;
    }

    /** Header name of the format, or {@code null} when there is none. */
    public String headerName() {
        return headerFormat == null ? null : headerName(headerFormat);
    }

    /** Header value with the secret in place of {@code {secret}}. */
    public String headerValue() {
        return headerFormat.substring(headerFormat.indexOf(':') + 1).strip().replace("{secret}", secret);
    }

    private static String headerName(String format) {
        int colon = format.indexOf(':');
        if (colon <= 0) {
            return null;
        }
        String n = format.substring(0, colon).strip();
        return n.isEmpty() || n.chars().anyMatch(c -> c <= ' ' || c >= 0x7f) ? null : n;
    }

    @Override
    public String toString() {
        return "Credential[id=" + id + ", name=" + name + ", secret=<redacted>, domains=" + domains
                + ", headerFormat=" + (headerFormat == null ? null : headerName(headerFormat) + ": <redacted>") + "]";
    }
}
