package dev.stockade.policy.impact;

/**
 * Where the proxy saw a recorded egress decision, as its audit lines name it. The listener says what the decision
 * was made on (a connection or a request) and with which scheme, so replay rebuilds the request the proxy built.
 */
public enum EgressListener {
    /** A plain {@code http://} forward request. */
    HTTP("http", "http", true, false),
    /** A plain HTTP request on the passthrough port. */
    PASSTHROUGH_HTTP("passthrough-http", "http", true, false),
    /** A request inside an intercepted TLS tunnel. */
    INTERCEPTED("intercepted", "https", true, false),
    /** The {@code CONNECT} that opened a tunnel. */
    CONNECT("connect", "https", false, false),
    /** A TLS connection on the passthrough port, decided on its server name. */
    PASSTHROUGH("passthrough", "https", false, true);

    private final String wire;
    private final String scheme;
    private final boolean request;
    private final boolean sniIsHost;

    EgressListener(String wire, String scheme, boolean request, boolean sniIsHost) {
        this.wire = wire;
        this.scheme = scheme;
        this.request = request;
        this.sniIsHost = sniIsHost;
    }

    /** The audit line's name. */
    public String wire() {
        return wire;
    }

    /** The scheme the proxy decided with. */
    public String scheme() {
        return scheme;
    }

    /** Whether the decision was about a request (method and path) rather than a connection. */
    public boolean requestLevel() {
        return request;
    }

    /** Whether the proxy passed the host as the TLS server name (it decided on the name it read). */
    public boolean sniIsHost() {
        return sniIsHost;
    }

    /** The listener named {@code wire}, or {@code null}. */
    public static EgressListener fromWire(String wire) {
        for (EgressListener l : values()) {
            if (l.wire.equals(wire)) {
                return l;
            }
        }
        return null;
    }
}
