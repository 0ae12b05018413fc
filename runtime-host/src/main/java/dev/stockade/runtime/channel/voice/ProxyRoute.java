package dev.stockade.runtime.channel.voice;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The explicit {@code HTTPS_PROXY} the realtime session tunnels through, with the user and password of its URL kept
 * apart so that they go into the {@code CONNECT} request's {@code Proxy-Authorization} and nowhere else: this record
 * prints without the password.
 *
 * @param host the proxy's host
 * @param port the proxy's port ({@code 80}, the {@code http} scheme's own, when the URL names none)
 * @param user the user of the URL's user information, or {@code null} when the proxy needs no authentication
 * @param password the password of the URL's user information (empty when only a user is given), or {@code null}
 */
public record ProxyRoute(String host, int port, String user, String password) {
    /**
     * Reads {@code HTTPS_PROXY}; {@code null} when unset. A value that is not a URL with a host refuses voice, as a
     * direct connection would step around the sandbox's egress proxy; the message never repeats the value.
     */
    public static ProxyRoute parse(String raw) {
        if (raw == null) {
            return null;
        }
        try {
            URI u = new URI(raw.strip());
            if (u.getHost() != null) {
                return new ProxyRoute(u.getHost(), u.getPort() > 0 ? u.getPort() : 80, userPart(u, 0),
                        userPart(u, 1));
            }
        } catch (Exception e) {
            // reported below, without the value (it may carry the proxy's password)
        }
        throw new IllegalArgumentException("HTTPS_PROXY is not a URL with a host, so voice is off rather than direct");
    }

    /** Where the tunnel is opened. */
    public InetSocketAddress address() {
        return new InetSocketAddress(host, port);
    }

    /** The user to authenticate as, when the URL names one. */
    public Optional<String> authenticatesAs() {
        return Optional.ofNullable(user);
    }

    private static String userPart(URI u, int index) {
        String info = u.getRawUserInfo();
        if (info == null) {
            return null;
        }
        int colon = info.indexOf(':');
        String part = index == 0 ? (colon < 0 ? info : info.substring(0, colon))
                : (colon < 0 ? "" : info.substring(colon + 1));
        // user information is percent-encoded in a URL (a password with `@` is written `%40`)
        return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "ProxyRoute[" + (user == null ? "" : "***:***@") + host + ":" + port + "]";
    }
}
