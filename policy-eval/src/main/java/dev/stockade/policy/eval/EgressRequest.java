package dev.stockade.policy.eval;

import java.util.List;
import java.util.Map;

/**
 * One egress request as the proxy sees it after interception, or one connection before it.
 *
 * @param scheme  {@code http} or {@code https} (lower case); {@code null} when unknown
 * @param host    the target host as seen on the wire (name or IP literal); normalised by the program
 * @param port    the target port
 * @param sni     the TLS server name the client sent, {@code null} for plain HTTP or when absent
 * @param caller  the kernel-resolved executable of the calling process; {@code null} when unknown
 * @param method  the HTTP method; {@code null} for a connection-level decision
 * @param path    the request path without the query string; {@code null} for a connection decision
 * @param query   the raw query string without {@code ?}, {@code null} when absent
 * @param headers request headers, names lower-cased, in arrival order; empty for a connection decision
 * @param body    the request body as far as it was buffered for inspection, {@code null} when none
 * @param bodyTruncated whether the body exceeded the inspection limit and {@code body} is only a prefix
 */
public record EgressRequest(
        String scheme,
        String host,
        int port,
        String sni,
        String caller,
        String method,
        String path,
        String query,
        Map<String, List<String>> headers,
        byte[] body,
        boolean bodyTruncated) {

    /** A connection-level request: all that a tunnel or a direct connection shows. */
    public static EgressRequest connection(String scheme, String host, int port, String sni, String caller) {
        return new EgressRequest(scheme, host, port, sni, caller, null, null, null, Map.of(), null, false);
    }

    /** Whether this is a connection-level request (no method and path yet). */
    public boolean isConnection() {
        return method == null;
    }

    /**
     * Whether this request opens a websocket (RFC 6455 section 4.1), the one definition the core and
     * every host share: {@code GET}; a {@code Connection} header naming the token {@code upgrade}; exactly
     * one {@code Upgrade} header whose value is {@code websocket} alone; {@code Sec-WebSocket-Version: 13};
     * and a {@code Sec-WebSocket-Key} that is 16 bytes in base64. Anything else that carries an
     * {@code Upgrade} header is an ordinary request: judged with its query and body, and a host strips
     * the header before forwarding it, so no other protocol ({@code h2c}, ...) can open a byte stream.
     */
    public boolean isWebSocketUpgrade() {
        if (!"GET".equals(method) || headers == null) {
            return false;
        }
        List<String> upgrade = headers.get("upgrade");
        if (upgrade == null || upgrade.size() != 1 || !upgrade.get(0).strip().equalsIgnoreCase("websocket")) {
            return false;
        }
        List<String> connection = headers.get("connection");
        boolean named = false;
        for (int i = 0; connection != null && i < connection.size() && !named; i++) {
            for (String token : connection.get(i).split(",")) {
                named |= token.strip().equalsIgnoreCase("upgrade");
            }
        }
        List<String> version = headers.get("sec-websocket-version");
        List<String> key = headers.get("sec-websocket-key");
        return named && version != null && version.size() == 1 && "13".equals(version.get(0).strip())
                && key != null && key.size() == 1 && isNonce(key.get(0).strip());
    }

    /** A websocket key: 16 bytes in base64, 24 characters ending in {@code ==}. */
    private static boolean isNonce(String key) {
        if (key.length() != 24 || !key.endsWith("==")) {
            return false;
        }
        try {
            return java.util.Base64.getDecoder().decode(key).length == 16;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The first value of a header (name in any case), or {@code null}. */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(java.util.Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
