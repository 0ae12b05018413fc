package dev.stockade.proxy.internal;

import java.util.Locale;

/** Normalising and splitting host names and authorities as they appear on the wire. */
public final class Hosts {
    private Hosts() {
    }

    /** A host and port parsed from an authority. */
    public record Authority(String host, int port) {
    }

    /**
     * Parses {@code host[:port]} or {@code [v6][:port]}; returns {@code null} when malformed. The host
     * is lower-cased, a trailing dot removed, IPv6 brackets removed.
     */
    public static Authority parse(String authority, int defaultPort) {
        if (authority == null || authority.isEmpty() || authority.length() > 300) {
            return null;
        }
        String host;
        String portText = null;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                return null;
            }
            host = authority.substring(1, close);
            String rest = authority.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    return null;
                }
                portText = rest.substring(1);
            }
            if (IpLiterals.parse(host) == null) {
                return null;
            }
        } else {
            int colon = authority.lastIndexOf(':');
            if (colon >= 0) {
                if (authority.indexOf(':') != colon) {
                    return null; // bare IPv6 without brackets is ambiguous
                }
                host = authority.substring(0, colon);
                portText = authority.substring(colon + 1);
            } else {
                host = authority;
            }
        }
        int port = defaultPort;
        if (portText != null) {
            if (portText.isEmpty() || portText.length() > 5 || !portText.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            port = Integer.parseInt(portText);
            if (port < 1 || port > 65535) {
                return null;
            }
        }
        String h = normalise(host);
        return h == null ? null : new Authority(h, port);
    }

    /** Lower case, no trailing dot; {@code null} when the text cannot be a host name or IP literal. */
    public static String normalise(String host) {
        if (host == null) {
            return null;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        if (h.isEmpty() || h.length() > 253) {
            return null;
        }
        if (IpLiterals.parse(h) != null) {
            return h.startsWith("[") ? h.substring(1, h.length() - 1) : h;
        }
        for (int i = 0; i < h.length(); i++) {
            char c = h.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
            if (!ok) {
                return null;
            }
        }
        return h.contains("..") || h.startsWith(".") ? null : h;
    }

    /** The authority form for a Host header. */
    public static String authority(String host, int port, int defaultPort) {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == defaultPort ? h : h + ":" + port;
    }
}
