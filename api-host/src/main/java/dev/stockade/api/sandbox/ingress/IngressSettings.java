package dev.stockade.api.sandbox.ingress;

import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code sandboxIngress.host} (the domain under which sandboxes expose ports: {@code <slug>.<host>} for the first
 * exposed port, {@code <port>-<slug>.<host>} for any) and {@code sandboxIngress.corsOrigins} (other origins whose pages
 * may call private ports with a bearer token). Without a host the ingress is off.
 */
@Singleton
public final class IngressSettings {
    private final String host;
    private final List<String> corsOrigins;

    public IngressSettings(@Value("${sandbox-ingress.host:}") String host,
                           @Value("${sandbox-ingress.cors-origins:}") String corsOrigins) {
        this.host = host.strip().toLowerCase(Locale.ROOT).replaceAll("^\\.+|\\.+$", "");
        this.corsOrigins = Arrays.stream(corsOrigins.split(",")).map(String::strip).filter(o -> !o.isEmpty())
                .map(IngressSettings::origin).toList();
    }

    /** Whether the ingress is on ({@code sandboxIngress.host} set). */
    public boolean enabled() {
        return !host.isEmpty();
    }

    /** The label in front of the ingress domain, when {@code hostHeader} names a host under it. */
    public Optional<String> label(String hostHeader) {
        if (host.isEmpty() || hostHeader == null) {
            return Optional.empty();
        }
        String h = hostHeader.strip().toLowerCase(Locale.ROOT);
        int colon = h.lastIndexOf(':');
        if (colon > 0 && h.indexOf(']') < colon) {
            h = h.substring(0, colon);
        }
        String suffix = "." + host;
        if (!h.endsWith(suffix) || h.length() == suffix.length()) {
            return Optional.empty();
        }
        return Optional.of(h.substring(0, h.length() - suffix.length()));
    }

    /** Whether {@code origin} (an {@code Origin} header) is one of the configured CORS origins. */
    public boolean corsAllowed(String origin) {
        return origin != null && corsOrigins.contains(origin(origin));
    }

    /** The host of an origin, when it is a host under the ingress domain; its label. */
    public Optional<String> originLabel(String origin) {
        try {
            return label(URI.create(origin).getHost());
        } catch (IllegalArgumentException | NullPointerException e) {
            return Optional.empty();
        }
    }

    /** An origin in the form browsers send: scheme://host[:port], lower case, no trailing slash. */
    static String origin(String o) {
        return o.toLowerCase(Locale.ROOT).replaceAll("/+$", "");
    }
}
