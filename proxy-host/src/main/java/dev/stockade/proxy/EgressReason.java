package dev.stockade.proxy;

import dev.stockade.policy.eval.ReasonCode;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * Every reason an audit line, an {@code X-Stockade-Deny} header and the metrics' {@code reason} label can carry: the
 * core's decision reasons (each the twin of one {@link ReasonCode}, so the decision's trail arrives unchanged) and the
 * proxy's own refusals and failures (with the status the client gets). One enum so that no reason travels as a bare
 * string; the proxy's own codes are documented in docs/proxy.md ({@code EgressReasonTest} checks both).
 */
public enum EgressReason {
    ENTRY_ALLOW(ReasonCode.ENTRY_ALLOW),
    RULE_ALLOW(ReasonCode.RULE_ALLOW),
    DEFAULT_ALLOW(ReasonCode.DEFAULT_ALLOW),
    DEFAULT_DENY(ReasonCode.DEFAULT_DENY),
    ENTRY_DENY(ReasonCode.ENTRY_DENY),
    CALLER_NOT_LISTED(ReasonCode.CALLER_NOT_LISTED),
    NO_RULE_MATCHED(ReasonCode.NO_RULE_MATCHED),
    CEILING_CLIPPED(ReasonCode.CEILING_CLIPPED),
    SCHEME_MISMATCH(ReasonCode.SCHEME_MISMATCH),
    PORT_NOT_ALLOWED(ReasonCode.PORT_NOT_ALLOWED),
    GRAPHQL_OPERATION_DENIED(ReasonCode.GRAPHQL_OPERATION_DENIED),
    GRAPHQL_NAME_DENIED(ReasonCode.GRAPHQL_NAME_DENIED),
    GRAPHQL_FIELD_DENIED(ReasonCode.GRAPHQL_FIELD_DENIED),
    GRAPHQL_ARGUMENT_DENIED(ReasonCode.GRAPHQL_ARGUMENT_DENIED),
    GRAPHQL_UNPARSEABLE(ReasonCode.GRAPHQL_UNPARSEABLE),
    GRAPHQL_LIMIT(ReasonCode.GRAPHQL_LIMIT),
    GRAPHQL_PERSISTED_QUERY(ReasonCode.GRAPHQL_PERSISTED_QUERY),
    GRAPHQL_OPERATION_UNKNOWN(ReasonCode.GRAPHQL_OPERATION_UNKNOWN),
    GRAPHQL_WEBSOCKET_DENIED(ReasonCode.GRAPHQL_WEBSOCKET_DENIED),
    GRAPHQL_UNSUPPORTED(ReasonCode.GRAPHQL_UNSUPPORTED),
    INVALID_REQUEST(ReasonCode.INVALID_REQUEST),
    POLICY_UNAVAILABLE(ReasonCode.POLICY_UNAVAILABLE),
    HALTED(ReasonCode.HALTED),
    INTERNAL_ERROR(ReasonCode.INTERNAL_ERROR),

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

    private static final Map<ReasonCode, EgressReason> BY_CORE = new EnumMap<>(ReasonCode.class);
    private static final Map<String, EgressReason> BY_CODE = new HashMap<>();

    static {
        for (EgressReason r : values()) {
            if (r.core != null) {
                BY_CORE.put(r.core, r);
            }
            BY_CODE.put(r.code, r);
        }
    }

    private final String code;
    private final ReasonCode core;
    private final int status;

    EgressReason(ReasonCode core) {
        this.code = core.code();
        this.core = core;
        this.status = 403;
    }

    EgressReason(String code, int status) {
        this.code = code;
        this.core = null;
        this.status = status;
    }

    /** The twin of a core reason; {@link #INTERNAL_ERROR} for one without a twin (a test keeps every one twinned). */
    public static EgressReason of(ReasonCode core) {
        EgressReason r = core == null ? null : BY_CORE.get(core);
        return r == null ? INTERNAL_ERROR : r;
    }

    /** The reason whose wire code is {@code code}, or {@code null} when there is none. */
    public static EgressReason fromCode(String code) {
        return code == null ? null : BY_CODE.get(code);
    }

    /** The wire code. */
    public String code() {
        return code;
    }

    /** The core reason this is the twin of, or {@code null} for the proxy's own. */
    public ReasonCode core() {
        return core;
    }

    /** Whether the proxy itself gives this reason (not the decision program). */
    public boolean proxyOwn() {
        return core == null;
    }

    /**
     * For the proxy's own reasons, the HTTP status the client gets: 0 when the connection is closed without an HTTP
     * answer (a TLS connection the proxy cannot speak HTTP on), -1 when it keeps the status already sent. A core
     * reason's refusal is a 403.
     */
    public int status() {
        return status;
    }

    @Override
    public String toString() {
        return code;
    }
}
