package dev.stockade.proxy.internal;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Header chores of forwarding: the core's view of a request's headers, and what never goes on. */
final class Headers {
    private Headers() {
    }

    static String blankToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    static Map<String, List<String>> lowerCased(HttpHeaders h) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : h) {
            m.computeIfAbsent(e.getKey().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(e.getValue());
        }
        m.replaceAll((k, v) -> List.copyOf(v));
        return m;
    }

    static void stripHopByHop(HttpHeaders h) {
        for (String named : h.getAll(HttpHeaderNames.CONNECTION)) {
            for (String token : named.split(",")) {
                String t = token.strip();
                if (!t.isEmpty()) {
                    h.remove(t);
                }
            }
        }
        for (String n : List.of("connection", "keep-alive", "proxy-authorization", "proxy-authenticate",
                "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade")) {
            h.remove(n);
        }
        h.remove(HttpHeaderNames.CONTENT_LENGTH);
    }


    /**
     * The core's view of a request: headers lower-cased, the body as far as the policy inspects it
     * ({@code inspect} bytes, flagged when cut), a blank server name as none.
     */
    static dev.stockade.policy.eval.EgressRequest egressRequest(io.netty.handler.codec.http.FullHttpRequest req,
            String scheme, String host, int port, String sni, String caller, String path, String query, int inspect) {
        byte[] body = null;
        boolean truncated = false;
        int len = req.content().readableBytes();
        if (len > 0) {
            int n = Math.min(len, inspect);
            body = io.netty.buffer.ByteBufUtil.getBytes(req.content(), req.content().readerIndex(), n);
            truncated = n < len;
        }
        return new dev.stockade.policy.eval.EgressRequest(scheme, host, port, blankToNull(sni), caller,
                req.method().name(), path, query, lowerCased(req.headers()), body, truncated);
    }
}
