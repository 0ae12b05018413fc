package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.proxy.EgressReason;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/** Responses the proxy itself writes: denies an agent can act on, and plain errors. */
public final class Responses {

    /** Header naming the reason, policy and entry of a deny. */
    public static final String DENY_HEADER = "X-Stockade-Deny";

    private Responses() {
    }

    /** A 403 naming the host, the reason code, the policy and entry, in the body and in a header. */
    public static FullHttpResponse deny(String host, EgressReason reason, Decision d, String detail) {
        String policy = d == null || d.policy() == null ? "-" : safe(d.policy());
        int entry = d == null ? -1 : d.entryIndex();
        int rule = d == null ? -1 : d.ruleIndex();
        String body = "stockade: request to " + safe(host) + " denied: " + reason.code() + " (policy " + policy
                + ", entry " + entry + (rule >= 0 ? ", rule " + rule : "") + ")\n"
                + (detail == null || detail.isEmpty() ? "" : safe(detail) + "\n");
        FullHttpResponse r = text(HttpResponseStatus.FORBIDDEN, body);
        r.headers().set(DENY_HEADER, reason.code() + "; policy=" + policy + "; entry=" + entry + "; rule=" + rule);
        return r;
    }

    /** A short plain-text response that closes the connection. */
    public static FullHttpResponse text(HttpResponseStatus status, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(bytes));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        return r;
    }

    /** Printable ASCII only, bounded: safe for a header value and a one-line body. */
    public static String safe(String s) {
        if (s == null) {
            return "-";
        }
        StringBuilder b = new StringBuilder(Math.min(s.length(), 200));
        for (int i = 0; i < s.length() && b.length() < 200; i++) {
            char c = s.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return b.toString();
    }
}
