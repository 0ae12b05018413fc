package dev.stockade.proxy;

import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.glob.HostPort;
import dev.stockade.policy.model.CredentialPlaceholder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A secret the proxy injects into intercepted requests. The secret never appears in
 * {@link #toString()}, logs, audit lines or error messages.
 *
 * @param id           identifier carried by the sentinel {@code __platform_cred:<id>__}
 * @param name         credential name, as policies bind it
 * @param secret       the secret itself
 * @param domains      where the secret may be sent: a domain pattern of the policy's syntax
 *                     ({@code api.github.com}, {@code *.githubusercontent.com}), optionally with
 *                     {@code :port}; without a port only 443, the intercepted https default
 * @param headerFormat header to set when the policy binds the credential, e.g.
 *                     {@code Authorization: Bearer {secret}}; {@code null} when none
 */
public final class Credential {
    private final UUID id;
    private final String name;
    private final String secret;
    private final List<String> domains;
    private final String headerFormat;
    private final List<Binding> bindings;

    public Credential(UUID id, String name, String secret, List<String> domains, String headerFormat) {
        this.id = Objects.requireNonNull(id, "id");
        this.name = Objects.requireNonNull(name, "name");
        this.secret = Objects.requireNonNull(secret, "secret");
        this.domains = List.copyOf(domains);
        this.headerFormat = headerFormat;
        if (headerFormat != null && headerName(headerFormat) == null) {
            throw new IllegalArgumentException("header format of credential `" + name + "` must be `Name: value`");
        }
        this.bindings = bindings(name, this.domains); // a bad domain is refused at load, not at a request
    }

    /** The identifier the sentinel carries. */
    public UUID id() {
        return id;
    }

    /** The name policies bind. */
    public String name() {
        return name;
    }

    /** The secret itself: only ever written into the outbound request. */
    public String secret() {
        return secret;
    }

    /** The domains as written. */
    public List<String> domains() {
        return domains;
    }

    /** The header format, {@code null} when none. */
    public String headerFormat() {
        return headerFormat;
    }

    /** One place a secret may go: hosts matching a domain pattern, on one port. */
    private record Binding(DomainPattern hosts, int port) {
    }

    /** The domains compiled once into the core's domain patterns (cached per credential). */
    private static List<Binding> bindings(String name, List<String> domains) {
        List<Binding> out = new ArrayList<>(domains.size());
        for (String d : domains) {
            // the core's domain patterns, port included (one grammar with policies: a bracketed IPv6 literal,
            // no leading zero); a wildcard never matches an IP address, so `*` is no key to every address
            DomainPattern p = DomainPattern.parse(d);
            if (p.kind() == DomainPattern.Kind.INVALID) {
                String why = HostPort.split(d).error();
                throw new IllegalArgumentException("credential `" + name + "` has a domain that is not a domain pattern: `"
                        + d + "`" + (why == null ? "" : " (" + why + ")"));
            }
            int port = p.port() == HostPort.ANY ? 443 : p.port();
            out.add(new Binding(p, port));
        }
        return List.copyOf(out);
    }

    /**
     * The identifier the platform derives from a credential's name (the compiler's sentinel for an
     * {@code envVarKey} uses the same, {@link CredentialPlaceholder#idFor}), for credential files that give no
     * explicit id.
     */
    public static UUID idFor(String name) {
        return CredentialPlaceholder.idFor(name);
    }

    /** The sentinel that stands for this credential: the core's {@link CredentialPlaceholder}. */
    public CredentialPlaceholder sentinel() {
        return new CredentialPlaceholder(id);
    }

    /**
     * Whether the secret may be sent to {@code host} (normal form) on {@code port}: a domain matches
     * the host, as the policy's domain patterns match, and names that port (443 when it names none).
     */
    public boolean covers(String host, int port) {
        for (Binding b : bindings) {
            if (b.port() == port && b.hosts().matches(host)) {
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
