package dev.stockade.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.graphql.GraphqlSummary;
import java.time.Instant;
import java.util.Optional;

/**
 * One canonical audit line: a single decision at the connection or the request level. Never carries
 * request bodies, query strings or secrets. Built by name through {@link #builder()} (eighteen fields
 * in a row are too easy to swap); the record is the line's shape and its accessors.
 *
 * @param time       when the decision was made
 * @param listener   {@code http} (plain forward), {@code connect}, {@code intercepted} or {@code passthrough}
 * @param sandbox    sandbox name, {@code null} when unknown
 * @param caller     kernel-resolved executable of the caller, {@code null} when unknown
 * @param host       target host as requested
 * @param port       target port
 * @param method     HTTP method, {@code null} for a connection decision
 * @param path       request path without query string, {@code null} for a connection decision
 * @param verdict    {@code allow} or {@code deny}
 * @param transport  {@code upstream}, {@code direct} or {@code null}
 * @param policy     deciding policy or {@code null}
 * @param entry      deciding entry index, -1 when none
 * @param rule       deciding rule index, -1 when none
 * @param reason     why: the core decision's twin or one of the proxy's own reasons
 * @param status     HTTP status returned to the client, 0 when none (a spliced tunnel)
 * @param bytesIn    bytes received from the client for this decision
 * @param bytesOut   bytes sent to the client for this decision
 * @param durationMs wall time from decision to completion
 * @param graphql    what a GraphQL fence judged (operation types, names, root fields; never arguments), {@code null}
 *                   when no fence read the request or frame: replay and suggest draw GraphQL rules from it
 * @see #unmeteredProvider()
 */
public record AuditEvent(
        Instant time,
        String listener,
        String sandbox,
        String caller,
        String host,
        int port,
        String method,
        String path,
        String verdict,
        String transport,
        String policy,
        int entry,
        int rule,
        EgressReason reason,
        int status,
        long bytesIn,
        long bytesOut,
        long durationMs,
        GraphqlSummary graphql) {

    /** A line built field by field; unset indexes are -1 (no entry, no rule), unset texts null. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads the canonical JSON form back (a replica's lines, shipped to the platform). A line without a time or
     * verdict, or whose reason is not one of {@link EgressReason}'s codes, is refused.
     */
    public static AuditEvent fromJson(JsonNode n) {
        if (!n.isObject() || !n.path("time").isTextual() || !n.path("verdict").isTextual()) {
            throw new IllegalArgumentException("not an audit line");
        }
        String code = text(n, "reason");
        EgressReason reason = EgressReason.fromCode(code);
        if (code != null && reason == null) {
            throw new IllegalArgumentException("audit line with an unknown reason");
        }
        return builder().time(Instant.parse(n.path("time").asText())).listener(text(n, "listener"))
                .sandbox(text(n, "sandbox")).caller(text(n, "caller")).host(text(n, "host"))
                .port(n.path("port").asInt()).method(text(n, "method")).path(text(n, "path"))
                .verdict(text(n, "verdict")).transport(text(n, "transport")).policy(text(n, "policy"))
                .entry(n.path("entry").asInt()).rule(n.path("rule").asInt()).reason(reason)
                .status(n.path("status").asInt()).bytesIn(n.path("bytesIn").asLong())
                .bytesOut(n.path("bytesOut").asLong()).durationMs(n.path("durationMs").asLong())
                .graphql(graphql(n.get("graphql"))).build();
    }

    /** An older line has none; one a proxy could not have written is refused with the line. */
    private static GraphqlSummary graphql(JsonNode g) {
        if (g == null || g.isNull()) {
            return null;
        }
        try {
            return GraphqlSummary.fromJson(g.toString());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("audit line with a malformed graphql summary: " + e.getMessage());
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /**
     * The model vendor whose API the target host is ({@link ModelVendor#ofHost}): a sandbox calling it here bypasses
     * the platform's metered inference proxy, so the line is flagged, allowed or denied. Derived from the host, never
     * stored, so a line read back from JSON (a replica's, perhaps of an older version) is flagged by this list.
     */
    public Optional<ModelVendor> unmeteredProvider() {
        return ModelVendor.ofHost(host);
    }

    /**
     * The canonical JSON form: one line, fixed key order, no trailing newline; {@code graphql} only on a line a GraphQL
     * fence judged, {@code unmeteredProvider} last and only on a flagged line.
     */
    public String toJson() {
        StringBuilder b = new StringBuilder(256).append('{');
        field(b, "time", time.toString()).append(',');
        field(b, "listener", listener).append(',');
        field(b, "sandbox", sandbox).append(',');
        field(b, "caller", caller).append(',');
        field(b, "host", host).append(',');
        b.append("\"port\":").append(port).append(',');
        field(b, "method", method).append(',');
        field(b, "path", path).append(',');
        field(b, "verdict", verdict).append(',');
        field(b, "transport", transport).append(',');
        field(b, "policy", policy).append(',');
        b.append("\"entry\":").append(entry).append(',');
        b.append("\"rule\":").append(rule).append(',');
        field(b, "reason", reason == null ? null : reason.code()).append(',');
        b.append("\"status\":").append(status).append(',');
        b.append("\"bytesIn\":").append(bytesIn).append(',');
        b.append("\"bytesOut\":").append(bytesOut).append(',');
        b.append("\"durationMs\":").append(durationMs);
        if (graphql != null) {
            b.append(",\"graphql\":").append(graphql.toJson());
        }
        unmeteredProvider().ifPresent(v -> field(b.append(','), "unmeteredProvider", v.wire()));
        return b.append('}').toString();
    }

    private static StringBuilder field(StringBuilder b, String key, String value) {
        b.append('"').append(key).append("\":");
        if (value == null) {
            return b.append("null");
        }
        b.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c == 0x2028 || c == 0x2029) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"');
    }

    /** Named construction of an {@link AuditEvent}: each field by name, {@link #build} once. */
    public static final class Builder {
        private Instant time;
        private String listener;
        private String sandbox;
        private String caller;
        private String host;
        private int port;
        private String method;
        private String path;
        private String verdict;
        private String transport;
        private String policy;
        private int entry = -1;
        private int rule = -1;
        private EgressReason reason;
        private int status;
        private long bytesIn;
        private long bytesOut;
        private long durationMs;
        private GraphqlSummary graphql;

        private Builder() {
        }

        public Builder time(Instant v) {
            time = v;
            return this;
        }

        public Builder listener(String v) {
            listener = v;
            return this;
        }

        public Builder sandbox(String v) {
            sandbox = v;
            return this;
        }

        public Builder caller(String v) {
            caller = v;
            return this;
        }

        /** The target as requested. */
        public Builder target(String host, int port) {
            return host(host).port(port);
        }

        public Builder host(String v) {
            host = v;
            return this;
        }

        public Builder port(int v) {
            port = v;
            return this;
        }

        public Builder method(String v) {
            method = v;
            return this;
        }

        public Builder path(String v) {
            path = v;
            return this;
        }

        public Builder verdict(String v) {
            verdict = v;
            return this;
        }

        public Builder transport(String v) {
            transport = v;
            return this;
        }

        public Builder policy(String v) {
            policy = v;
            return this;
        }

        public Builder entry(int v) {
            entry = v;
            return this;
        }

        public Builder rule(int v) {
            rule = v;
            return this;
        }

        public Builder reason(EgressReason v) {
            reason = v;
            return this;
        }

        public Builder status(int v) {
            status = v;
            return this;
        }

        /** Bytes received from and sent to the client for this decision. */
        public Builder bytes(long in, long out) {
            return bytesIn(in).bytesOut(out);
        }

        public Builder bytesIn(long v) {
            bytesIn = v;
            return this;
        }

        public Builder bytesOut(long v) {
            bytesOut = v;
            return this;
        }

        public Builder durationMs(long v) {
            durationMs = v;
            return this;
        }

        /** What a GraphQL fence judged; {@code null} (the default) when none read the request. */
        public Builder graphql(GraphqlSummary v) {
            graphql = v;
            return this;
        }

        /** The line; a time and a verdict are required (every line says when and what). */
        public AuditEvent build() {
            if (time == null || verdict == null) {
                throw new IllegalStateException("an audit line needs a time and a verdict");
            }
            return new AuditEvent(time, listener, sandbox, caller, host, port, method, path, verdict, transport,
                    policy, entry, rule, reason, status, bytesIn, bytesOut, durationMs, graphql);
        }
    }
}
