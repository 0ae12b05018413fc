package dev.stockade.policy.eval;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A request target or a URL, parsed once by the rules every host shares (docs/semantics.md, "Request
 * targets and URLs"): the proxy parses what an agent sends with {@link #parse}, the CLI's
 * {@code policy eval --url} and the test runner parse what a user writes with {@link #parseUrl}, and
 * both become an {@link EgressRequest} through {@link Absolute#request}. Hosts go through
 * {@link HostName}; ports are 1 to 65535; user information is refused. A pure function: no lookup,
 * no exception for any input.
 */
public sealed interface RequestTarget
        permits RequestTarget.Absolute, RequestTarget.Origin, RequestTarget.Authority, RequestTarget.BadHost,
        RequestTarget.Refused {

    /** Longest target or URL read. */
    int MAX_LENGTH = 65_536;

    /** Longest authority ({@code host:port}) read: a 253-character host, brackets, a port. */
    int MAX_AUTHORITY = 300;

    /** {@code scheme://host[:port]/path?query}: lower-case scheme, host in normal form, path at least {@code /}. */
    record Absolute(String scheme, HostName host, int port, String path, String query) implements RequestTarget {
        /** The request this target names, as a host sees it after interception (SNI for https and wss). */
        public EgressRequest request(String method, String caller, Map<String, List<String>> headers, byte[] body) {
            boolean tls = scheme.equals("https") || scheme.equals("wss");
            return new EgressRequest(scheme, host.value(), port, tls ? host.value() : null, caller, method, path,
                    query, Map.copyOf(headers), body, false);
        }
    }

    /** {@code /path?query}: the host comes from the connection (a tunnel, a Host header). */
    record Origin(String path, String query) implements RequestTarget {
    }

    /** {@code host:port}, a CONNECT target or a Host header. */
    record Authority(HostName host, int port) implements RequestTarget {
    }

    /**
     * A well-formed URL or target whose only fault is a host the grammar refuses ({@code allowed.com..},
     * {@code 0177.0.0.1}): a host refuses it as it refuses any bad target; the decision program, given the
     * host as written, denies it {@code invalid-request}, which is what a test case can expect.
     */
    record BadHost(String scheme, String hostText, int port, String path, String query, String why)
            implements RequestTarget {
        /** The request as written, for the decision program to deny. */
        public EgressRequest request(String method, String caller, Map<String, List<String>> headers, byte[] body) {
            return new EgressRequest(scheme, hostText, port, null, caller, method, path, query, Map.copyOf(headers),
                    body, false);
        }
    }

    /** Not a target Stockade serves; {@code why} is safe to show (it never echoes the input). */
    record Refused(String why) implements RequestTarget {
    }

    /**
     * A request target as it arrives on the wire (RFC 9112 section 3.2): absolute-form ({@code http} or
     * {@code https}), origin-form, or, when {@code connect}, authority-form with its port. A fragment,
     * a control character or a space is refused.
     */
    static RequestTarget parse(String target, boolean connect) {
        if (target == null || target.isEmpty() || target.length() > MAX_LENGTH) {
            return tooLong("the request target", target, MAX_LENGTH);
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= 0x20 || c == 0x7f) {
                return new Refused("the request target holds a space or a control character");
            }
            if (c == '#') {
                return new Refused("a fragment is not part of a request target");
            }
        }
        if (connect) {
            return authority(target, -1);
        }
        if (target.charAt(0) == '/') {
            return origin(target);
        }
        return absolute(target, List.of("http", "https"), false);
    }

    /**
     * A URL as a user writes it ({@code http}, {@code https}, {@code ws}, {@code wss}): the fragment is
     * dropped, non-ASCII characters of the path and query are percent-encoded as UTF-8 (as browsers send
     * them), an internationalised host goes through IDNA.
     */
    static RequestTarget parseUrl(String url) {
        if (url == null || url.isEmpty() || url.length() > MAX_LENGTH) {
            return tooLong("the URL", url, MAX_LENGTH);
        }
        int hash = url.indexOf('#');
        String u = hash < 0 ? url : url.substring(0, hash);
        for (int i = 0; i < u.length(); i++) {
            char c = u.charAt(i);
            if (c <= 0x20 || c == 0x7f) {
                return new Refused("the URL holds a space or a control character");
            }
        }
        return absolute(u, List.of("http", "https", "ws", "wss"), true);
    }

    /** {@code host[:port]} or {@code [v6][:port]}; {@code defaultPort} -1 requires the port. */
    static RequestTarget authority(String text, int defaultPort) {
        if (text == null || text.isEmpty() || text.length() > MAX_AUTHORITY) {
            return tooLong("the authority", text, MAX_AUTHORITY);
        }
        if (text.indexOf('@') >= 0) {
            return new Refused("user information in the authority is refused");
        }
        int close = text.startsWith("[") ? text.indexOf(']') : -1;
        int colon = text.lastIndexOf(':');
        String host = text;
        String portText = null;
        if (text.startsWith("[")) {
            if (close < 0 || close + 1 < text.length() && text.charAt(close + 1) != ':') {
                return new Refused("the authority's IPv6 literal is malformed");
            }
            host = text.substring(0, close + 1);
            portText = close + 1 < text.length() ? text.substring(close + 2) : null;
        } else if (colon >= 0) {
            if (text.indexOf(':') != colon) {
                return new Refused("an IPv6 literal in an authority needs brackets");
            }
            host = text.substring(0, colon);
            portText = text.substring(colon + 1);
        }
        int port = portText == null ? defaultPort : port(portText);
        if (port < 1) {
            return new Refused(portText == null ? "the authority needs a port" : "the port is not 1 to 65535");
        }
        ParsedHost h = HostName.parse(host);
        return h instanceof HostName name ? new Authority(name, port)
                : new BadHost(null, host, port, null, null, ((HostName.Refused) h).why());
    }

    /** An empty or over-long input refused, naming the limit it exceeded and its length, never its text. */
    private static Refused tooLong(String what, String input, int limit) {
        if (input == null || input.isEmpty()) {
            return new Refused(what + " is empty");
        }
        return new Refused(what + " is " + input.length() + " characters long, over the limit of " + limit);
    }

    private static int port(String text) {
        if (text.isEmpty() || text.length() > 5) {
            return -1;
        }
        int v = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + c - '0';
        }
        return v <= 65535 ? v : -1;
    }

    private static RequestTarget origin(String rest) {
        int q = rest.indexOf('?');
        return new Origin(q < 0 ? rest : rest.substring(0, q), q < 0 ? null : rest.substring(q + 1));
    }

    private static RequestTarget absolute(String text, List<String> schemes, boolean encode) {
        int sep = text.indexOf("://");
        String scheme = sep <= 0 ? "" : text.substring(0, sep).toLowerCase(java.util.Locale.ROOT);
        if (!schemes.contains(scheme)) {
            return new Refused("the target needs a scheme of " + String.join(", ", schemes) + " and a host");
        }
        String rest = text.substring(sep + 3);
        int end = 0;
        while (end < rest.length() && rest.charAt(end) != '/' && rest.charAt(end) != '?') {
            end++;
        }
        int defaultPort = scheme.equals("https") || scheme.equals("wss") ? 443 : 80;
        RequestTarget a = authority(rest.substring(0, end), defaultPort);
        String tail = end == rest.length() ? "/" : rest.charAt(end) == '?' ? "/" + rest.substring(end) : rest.substring(end);
        Origin o = (Origin) origin(encode ? encodeNonAscii(tail) : tail);
        if (a instanceof BadHost bad) {
            return new BadHost(scheme, bad.hostText(), bad.port(), o.path(), o.query(), bad.why());
        }
        if (!(a instanceof Authority auth)) {
            return a;
        }
        return new Absolute(scheme, auth.host(), auth.port(), o.path(), o.query());
    }

    /** Non-ASCII characters percent-encoded as UTF-8; ASCII text returned as it is. */
    private static String encodeNonAscii(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) < 0x80) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.substring(0, i));
        for (byte x : s.substring(i).getBytes(StandardCharsets.UTF_8)) {
            if (x >= 0) {
                b.append((char) x);
            } else {
                b.append('%').append(Character.toUpperCase(Character.forDigit((x >> 4) & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(x & 0xf, 16)));
            }
        }
        return b.toString();
    }
}
