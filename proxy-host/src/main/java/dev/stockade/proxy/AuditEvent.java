package dev.stockade.proxy;

import java.time.Instant;

/**
 * One canonical audit line: a single decision at the connection or the request level. Never carries
 * request bodies, query strings or secrets.
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
 * @param reason     stable reason code (core {@code ReasonCode} or a proxy code such as {@code dial-refused})
 * @param status     HTTP status returned to the client, 0 when none (a spliced tunnel)
 * @param bytesIn    bytes received from the client for this decision
 * @param bytesOut   bytes sent to the client for this decision
 * @param durationMs wall time from decision to completion
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
        String reason,
        int status,
        long bytesIn,
        long bytesOut,
        long durationMs) {

    /** Reads the canonical JSON form back (a replica's lines, shipped to the platform). */
    public static AuditEvent fromJson(com.fasterxml.jackson.databind.JsonNode n) {
        if (!n.isObject() || !n.path("time").isTextual() || !n.path("verdict").isTextual()) {
            throw new IllegalArgumentException("not an audit line");
        }
        return new AuditEvent(java.time.Instant.parse(n.path("time").asText()), text(n, "listener"),
                text(n, "sandbox"), text(n, "caller"), text(n, "host"), n.path("port").asInt(), text(n, "method"),
                text(n, "path"), text(n, "verdict"), text(n, "transport"), text(n, "policy"), n.path("entry").asInt(),
                n.path("rule").asInt(), text(n, "reason"), n.path("status").asInt(), n.path("bytesIn").asLong(),
                n.path("bytesOut").asLong(), n.path("durationMs").asLong());
    }

    private static String text(com.fasterxml.jackson.databind.JsonNode n, String field) {
        com.fasterxml.jackson.databind.JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** The canonical JSON form: one line, fixed key order, no trailing newline. */
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
        field(b, "reason", reason).append(',');
        b.append("\"status\":").append(status).append(',');
        b.append("\"bytesIn\":").append(bytesIn).append(',');
        b.append("\"bytesOut\":").append(bytesOut).append(',');
        b.append("\"durationMs\":").append(durationMs);
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
}
