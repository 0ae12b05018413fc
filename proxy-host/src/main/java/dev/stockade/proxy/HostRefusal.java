package dev.stockade.proxy;

/**
 * The proxy's own reasons for refusing or failing an exchange, beside the core's
 * {@link dev.stockade.policy.eval.ReasonCode} (which the decision program gives). Each code is what the
 * audit line's {@code reason}, the {@code X-Stockade-Deny} header and the metrics' {@code reason} label
 * carry; every one is documented in docs/proxy.md ({@code HostRefusalDocumentedTest} checks it).
 */
public enum HostRefusal {
    /** CONNECT to a host the policy does not route upstream (it would be spliced blindly). */
    NOT_ROUTED_UPSTREAM("not-routed-upstream", 403),
    /** Passthrough connection to a host the policy routes upstream (its request rules would be skipped). */
    ROUTED_UPSTREAM("routed-upstream", 0),
    /** The dial guard refused every address of the host, or the target is the proxy itself. */
    DIAL_REFUSED("dial-refused", 403),
    /** A credential sentinel sent where its credential may not go. */
    CREDENTIAL_NOT_ALLOWED("credential-not-allowed", 403),
    /** A multi-sandbox proxy got no or an unknown sandbox token. */
    PROXY_AUTH_REQUIRED("proxy-auth-required", 407),
    /** The sandbox already has {@code --max-connections} open. */
    CONNECTION_LIMIT("connection-limit", 429),
    /** A request head or body missed its deadline. */
    REQUEST_TIMEOUT("request-timeout", 408),
    /** The request header block is over {@code --max-header-bytes}. */
    HEADER_TOO_LARGE("header-too-large", 431),
    /** The request line is over 8192 bytes. */
    REQUEST_LINE_TOO_LONG("request-line-too-long", 414),
    /** The request body is over {@code --max-body-bytes}. */
    BODY_TOO_LARGE("body-too-large", 413),
    /** The origin could not be reached (or failed certificate verification). */
    ORIGIN_UNREACHABLE("origin-unreachable", 502),
    /** The origin's response ended before its framing said (the status is the one already sent). */
    ORIGIN_CUT_SHORT("origin-cut-short", -1),
    /** A TLS connection on the passthrough port without a usable server name. */
    NO_SERVER_NAME("no-server-name", 0),
    /** A ClientHello that is malformed, spans several records or exceeds one record. */
    MALFORMED_CLIENT_HELLO("malformed-client-hello", 0),
    /** No complete ClientHello or request within {@code --handshake-timeout}. */
    HANDSHAKE_TIMEOUT("handshake-timeout", 0);

    private final String code;
    private final int status;

    HostRefusal(String code, int status) {
        this.code = code;
        this.status = status;
    }

    /** The wire code. */
    public String code() {
        return code;
    }

    /**
     * The HTTP status the client gets: 0 when the connection is closed without an HTTP answer (a TLS
     * connection the proxy cannot speak HTTP on), -1 when it keeps the status already sent.
     */
    public int status() {
        return status;
    }
}
