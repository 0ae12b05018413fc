package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.HostName;
import dev.stockade.policy.eval.RequestTarget;

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
        RequestTarget t = RequestTarget.authority(authority, defaultPort);
        return t instanceof RequestTarget.Authority a ? new Authority(a.host().value(), a.port()) : null;
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

    /**
     * The server name the client asked for in the TLS handshake of {@code ssl}, in normal form; ""
     * when it named one the grammar refuses; {@code current} when it named none.
     */
    public static String serverName(io.netty.handler.ssl.SslHandler ssl, String current) {
        javax.net.ssl.SSLSession session = ssl == null ? null : ssl.engine().getSession();
        String out = current;
        if (session instanceof javax.net.ssl.ExtendedSSLSession ext) {
            for (javax.net.ssl.SNIServerName n : ext.getRequestedServerNames()) {
                if (n instanceof javax.net.ssl.SNIHostName h) {
                    String name = normalise(h.getAsciiName());
                    out = name == null ? "" : name;
                }
            }
        }
        return out;
    }
}
