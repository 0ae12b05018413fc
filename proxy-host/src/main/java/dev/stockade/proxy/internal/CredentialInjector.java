package dev.stockade.proxy.internal;

import dev.stockade.policy.model.CredentialPlaceholder;
import dev.stockade.proxy.Credential;
import dev.stockade.proxy.CredentialStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Puts secrets into an allowed, intercepted request (docs/semantics.md, "Credentials go only where they
 * are bound"): a sentinel {@code __platform_cred:<id>__} is replaced only in its credential's own header
 * (the header of its {@code header} format), only on intercepted https to a host and port the credential
 * names; a credential a policy binds sets its header when the request lacks it, under the same
 * condition. A sentinel anywhere else (another header, which an origin may echo back, another host or
 * port, plain HTTP, an unknown id) refuses the whole request. Pure: no I/O, no secret in a refusal.
 */
public final class CredentialInjector {
    private CredentialInjector() {
    }

    /** The request's target as injection needs it. */
    public record Target(String host, int port, boolean intercepted) {
    }

    /**
     * {@link #apply} on Netty's outbound headers: they are replaced by the rewritten ones only when nothing is
     * refused. Returns the problem text (no secret), or {@code null}.
     */
    static String applyTo(io.netty.handler.codec.http.HttpHeaders out, Target target, CredentialStore store,
                          java.util.Collection<String> bound) {
        List<Map.Entry<String, String>> headers = new ArrayList<>(out.entries());
        String problem = apply(headers, target, store, bound);
        if (problem == null) {
            out.clear();
            headers.forEach(e -> out.add(e.getKey(), e.getValue()));
        }
        return problem;
    }

    /**
     * Rewrites {@code headers} (name, value pairs in order) and returns {@code null}, or returns why the
     * request is refused (no secret in it) and leaves them as they were.
     */
    public static String apply(List<Map.Entry<String, String>> headers, Target target, CredentialStore store,
                               java.util.Collection<String> bound) {
        List<Map.Entry<String, String>> out = new ArrayList<>(headers.size());
        for (Map.Entry<String, String> e : headers) {
            String value = e.getValue();
            if (!CredentialPlaceholder.mayOccurIn(value)) {
                out.add(e);
                continue;
            }
            StringBuilder b = new StringBuilder();
            String problem = replace(e.getKey(), value, target, store, b);
            if (problem != null) {
                return problem;
            }
            out.add(Map.entry(e.getKey(), b.toString()));
        }
        for (String name : bound) {
            Credential c = store.byName(name).orElse(null);
            if (c != null && c.headerName() != null && target.intercepted() && c.covers(target.host(), target.port())
                    && out.stream().noneMatch(h -> h.getKey().equalsIgnoreCase(c.headerName()))) {
                out.add(Map.entry(c.headerName(), c.headerValue()));
            }
        }
        headers.clear();
        headers.addAll(out);
        return null;
    }

    private static String replace(String header, String value, Target target, CredentialStore store, StringBuilder b) {
        String safeHeader = Responses.safe(header);
        int from = 0;
        for (CredentialPlaceholder.Occurrence at : CredentialPlaceholder.findIn(value)) {
            if (at.malformed()) {
                return "malformed credential sentinel in header `" + safeHeader + "`";
            }
            Credential c = store.byId(at.placeholder().id()).orElse(null);
            if (c == null) {
                return "unknown credential sentinel in header `" + safeHeader + "`";
            }
            String name = Responses.safe(c.name());
            if (!target.intercepted()) {
                return "credential `" + name + "` is injected only into intercepted https";
            }
            if (c.headerName() == null || !c.headerName().equalsIgnoreCase(header)) {
                return "credential `" + name + "` goes only in its own header"
                        + (c.headerName() == null ? "" : " `" + Responses.safe(c.headerName()) + "`")
                        + ", not in `" + safeHeader + "`";
            }
            if (!c.covers(target.host(), target.port())) {
                return "credential `" + name + "` may not be sent to `" + target.host() + ":" + target.port() + "`";
            }
            b.append(value, from, at.start()).append(c.secret());
            from = at.end();
        }
        b.append(value, from, value.length());
        return null;
    }
}
