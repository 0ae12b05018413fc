package dev.stockade.api.kernel.identity;

import dev.stockade.api.kernel.config.PlatformConfig;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A resource a token may be minted for (RFC 8707): the organization-wide MCP endpoint, one project's MCP endpoint,
 * or the REST API. A token of the embedded provider works only on the resource its audience names, so a token for
 * one project's MCP endpoint opens neither another project's nor the REST API.
 *
 * @param uri  the exact resource URL, as the protected-resource metadata names it and the token's {@code aud} holds
 * @param path the path under the public URL ({@code /mcp}, {@code /projects/{id}/mcp} or {@code /v1})
 */
public record ProtectedResource(String uri, String path) {
    private static final Pattern PROJECT_MCP = Pattern.compile("/projects/([0-9A-Za-z-]{1,64})/mcp/?");

    /** The REST API's resource: also what a sign-in without a {@code resource} parameter is for. */
    public static ProtectedResource rest(PlatformConfig config) {
        return new ProtectedResource(config.effectivePublicUrl() + "/v1", "/v1");
    }

    /** The MCP resource a request path names, if it names one. */
    public static Optional<ProtectedResource> mcp(PlatformConfig config, String path) {
        if (path.equals("/mcp") || path.equals("/mcp/")) {
            return Optional.of(new ProtectedResource(config.effectivePublicUrl() + "/mcp", "/mcp"));
        }
        Matcher m = PROJECT_MCP.matcher(path);
        if (m.matches()) {
            String p = "/projects/" + m.group(1) + "/mcp";
            return Optional.of(new ProtectedResource(config.effectivePublicUrl() + p, p));
        }
        return Optional.empty();
    }

    /** The resource a request to {@code path} uses: its MCP endpoint, else the REST API. */
    public static ProtectedResource of(PlatformConfig config, String path) {
        return mcp(config, path).orElseGet(() -> rest(config));
    }

    /** The resource a {@code resource} parameter names, or empty when it names none of this platform's. */
    public static Optional<ProtectedResource> named(PlatformConfig config, String uri) {
        String base = config.effectivePublicUrl();
        if (uri == null || !uri.startsWith(base + "/")) {
            return Optional.empty();
        }
        String path = uri.substring(base.length());
        if (path.equals("/v1") || path.equals("/v1/") || path.equals("/")) {
            return Optional.of(rest(config));
        }
        return mcp(config, path);
    }

    /** Where its RFC 9728 metadata is served: {@code /.well-known/oauth-protected-resource} + the resource path. */
    public String metadataUrl(PlatformConfig config) {
        return config.effectivePublicUrl() + "/.well-known/oauth-protected-resource" + path;
    }
}
