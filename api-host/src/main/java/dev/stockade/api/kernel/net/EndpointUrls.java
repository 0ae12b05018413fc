package dev.stockade.api.kernel.net;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.proxy.dial.DialGuard;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The check of an outbound endpoint URL a caller stores (a cluster's API server, an STS endpoint): https unless a
 * setting allows plain http, no credentials, query or fragment, and an address literal the dial guard refuses is
 * refused when written (a host name is checked at every dial). One rule, so every such field refuses alike.
 */
public final class EndpointUrls {
    private EndpointUrls() {
    }

    /**
     * The parsed URL, or a 400 naming {@code field}; {@code plainHttpSetting} names the setting that allows plain
     * http, or is null when it is off; {@code pathAllowed} false refuses any path but {@code /}.
     */
    public static URI check(String raw, String field, String plainHttpSetting, boolean plainHttpAllowed,
                            boolean pathAllowed, DialGuard guard) {
        String pointer = "/" + field;
        URI u;
        try {
            u = UrlHosts.readable(new URI(raw.strip()));
        } catch (URISyntaxException e) {
            throw ApiProblem.invalid(pointer, "invalid-url", "`" + field + "` is not a URL");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !(scheme.equals("http") && plainHttpAllowed)) {
            throw ApiProblem.invalid(pointer, "scheme", "`" + field + "` must be an https URL"
                    + (scheme.equals("http") ? " (plain http is refused unless " + plainHttpSetting + " is set)" : ""));
        }
        boolean pathless = u.getRawPath() == null || u.getRawPath().isEmpty() || u.getRawPath().equals("/");
        if (u.getHost() == null || u.getRawUserInfo() != null || u.getRawQuery() != null || u.getRawFragment() != null
                || !pathAllowed && !pathless) {
            throw ApiProblem.invalid(pointer, "invalid-url", "`" + field + "` must be scheme://host[:port]"
                    + (pathAllowed ? "[/path] without credentials, query or fragment"
                    : " without credentials, path, query or fragment"));
        }
        String host = u.getHost().startsWith("[") ? u.getHost().substring(1, u.getHost().length() - 1) : u.getHost();
        if ((host.matches("[0-9.]+") || host.contains(":")) && guard.check(host) instanceof DialGuard.Refused r) {
            throw ApiProblem.invalid(pointer, "refused-address", "`" + field + "`: " + r.why());
        }
        return u;
    }
}
