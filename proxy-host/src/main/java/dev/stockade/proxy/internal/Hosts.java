package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.HostName;

/** Normalising and splitting host names and authorities as they appear on the wire. */
public final class Hosts {
    private Hosts() {
    }

    /** A host and port parsed from an authority. */
    public record Authority(String host, int port) {
    }

    /**
     * Parses {@code host[:port]} or {@code [v6][:port]}; returns {@code null} when malformed. The host
     * is in its normal form ({@link #normalise}), IPv6 brackets removed.
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
            if (host.isEmpty() || host.indexOf(':') < 0) {
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

    /**
     * The host in the core's one normal form ({@link HostName}: IDNA UTS #46, lower case, one trailing
     * dot dropped, IPv4 in any inet_aton form as its dotted quad, IPv6 per RFC 5952 without brackets,
     * mapped forms unwrapped); {@code null} when the grammar refuses it.
     */
    public static String normalise(String host) {
        return host != null && HostName.parse(host) instanceof HostName h ? h.value() : null;
    }

    /** The authority form for a Host header. */
    public static String authority(String host, int port, int defaultPort) {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == defaultPort ? h : h + ":" + port;
    }
}
