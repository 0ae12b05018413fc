package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.RequestTarget;
import java.util.List;

/**
 * Where a request goes, from what the agent sent: the request target (parsed by the core's
 * {@link RequestTarget}), the Host headers, and the connection it arrived on. A pure function with a
 * sealed result, fuzzed by {@code RequestTargetFuzzTest}: it faces the agent before any decision.
 *
 * <ul>
 *   <li>forward port: absolute-form {@code http://} only ({@code https} goes through CONNECT);</li>
 *   <li>inside a tunnel: origin-form, or absolute-form {@code https://} naming the tunnel's host and
 *       port; a TLS server name must name the tunnel's host;</li>
 *   <li>plain HTTP on the passthrough port: origin-form with one Host header, whose port, when given,
 *       must be the configured origin port (the agent does not choose the port);</li>
 *   <li>everywhere: at most one Host header, which must name the target's host and port.</li>
 * </ul>
 */
public final class TargetResolver {
    private TargetResolver() {
    }

    /** The connection a request arrived on. */
    public enum Listener {
        FORWARD("http"), TUNNEL("intercepted"), PASSTHROUGH_HTTP("passthrough-http");

        private final String auditName;

        Listener(String auditName) {
            this.auditName = auditName;
        }

        /** The listener as audit lines name it. */
        public String auditName() {
            return auditName;
        }
    }

    /**
     * @param tunnelHost the CONNECT host (normal form), for {@link Listener#TUNNEL}
     * @param sni        the TLS server name in normal form, "" when unreadable, {@code null} when absent
     * @param originPort the passthrough's plain-HTTP origin port, for {@link Listener#PASSTHROUGH_HTTP}
     */
    public record Context(Listener listener, String tunnelHost, int tunnelPort, String sni, int originPort) {
        int defaultPort() {
            return switch (listener) {
                case FORWARD -> 80;
                case TUNNEL -> 443;
                case PASSTHROUGH_HTTP -> originPort;
            };
        }
    }

    /** What {@link #resolve} decides. */
    public sealed interface Result permits Resolved, Invalid {
    }

    /** The target: host in normal form, port, path (at least {@code /}) and raw query. */
    public record Resolved(String host, int port, String path, String query) implements Result {
    }

    /** Refused; {@code problem} is safe to show; host, port and path as far as they were read (for the audit). */
    public record Invalid(String problem, String host, int port, String path) implements Result {
    }

    /** Resolves the target of one request. Never throws. */
    public static Result resolve(String uri, List<String> hostHeaders, Context c) {
        RequestTarget t = RequestTarget.parse(uri, false);
        String tunnelHost = c.listener() == Listener.TUNNEL ? c.tunnelHost() : null;
        int tunnelPort = c.listener() == Listener.TUNNEL ? c.tunnelPort() : 0;
        if (t instanceof RequestTarget.Refused r) {
            return new Invalid(r.why(), tunnelHost, tunnelPort, null);
        }
        if (t instanceof RequestTarget.BadHost b) {
            return new Invalid("bad host in the request target: " + b.why(), tunnelHost, tunnelPort, b.path());
        }
        Result where = switch (c.listener()) {
            case FORWARD -> forward(t);
            case TUNNEL -> tunnel(t, c);
            case PASSTHROUGH_HTTP -> passthrough(t, hostHeaders, c);
        };
        return where instanceof Resolved r ? hostAgrees(r, hostHeaders, c.defaultPort()) : where;
    }

    private static Result forward(RequestTarget t) {
        if (t instanceof RequestTarget.Absolute a && a.scheme().equals("http")) {
            return new Resolved(a.host().value(), a.port(), a.path(), a.query());
        }
        return new Invalid(t instanceof RequestTarget.Absolute
                ? "send https through CONNECT, not as an absolute-form request"
                : "the forward proxy needs an absolute-form http:// request", null, 0, null);
    }

    private static Result tunnel(RequestTarget t, Context c) {
        if (c.tunnelHost() == null) {
            return new Invalid("the tunnel has no host", null, 0, null); // fail closed (found by the fuzz target)
        }
        Resolved r;
        if (t instanceof RequestTarget.Origin o) {
            r = new Resolved(c.tunnelHost(), c.tunnelPort(), o.path(), o.query());
        } else if (t instanceof RequestTarget.Absolute a && a.scheme().equals("https")
                && a.host().value().equals(c.tunnelHost()) && a.port() == c.tunnelPort()) {
            r = new Resolved(c.tunnelHost(), c.tunnelPort(), a.path(), a.query());
        } else {
            return new Invalid("request target disagrees with the tunnel host `" + c.tunnelHost() + "`", c.tunnelHost(),
                    c.tunnelPort(), null);
        }
        if (c.sni() != null && !c.sni().equals(c.tunnelHost())) {
            return new Invalid("TLS server name `" + Responses.safe(c.sni()) + "` disagrees with the tunnel host `"
                    + c.tunnelHost() + "`", c.tunnelHost(), c.tunnelPort(), r.path());
        }
        return r;
    }

    private static Result passthrough(RequestTarget t, List<String> hostHeaders, Context c) {
        if (t instanceof RequestTarget.Absolute a && a.scheme().equals("http")) {
            return new Resolved(a.host().value(), a.port(), a.path(), a.query());
        }
        if (!(t instanceof RequestTarget.Origin o) || hostHeaders.size() != 1) {
            return new Invalid("a plain HTTP request on the passthrough port needs one valid Host header", null, 0, null);
        }
        RequestTarget h = RequestTarget.authority(hostHeaders.get(0).strip(), c.originPort());
        if (!(h instanceof RequestTarget.Authority a) || a.port() != c.originPort()) {
            return new Invalid("a plain HTTP request on the passthrough port needs one valid Host header naming the"
                    + " origin port " + c.originPort(), null, 0, o.path());
        }
        return new Resolved(a.host().value(), a.port(), o.path(), o.query());
    }

    private static Result hostAgrees(Resolved where, List<String> hostHeaders, int defaultPort) {
        if (hostHeaders.size() > 1) {
            return new Invalid("several Host headers", where.host(), where.port(), where.path());
        }
        if (hostHeaders.size() == 1) {
            RequestTarget h = RequestTarget.authority(hostHeaders.get(0).strip(), defaultPort);
            if (!(h instanceof RequestTarget.Authority a) || !a.host().value().equals(where.host())
                    || a.port() != where.port()) {
                return new Invalid("Host header `" + Responses.safe(hostHeaders.get(0)) + "` disagrees with the target `"
                        + where.host() + "`", where.host(), where.port(), where.path());
            }
        }
        return where;
    }
}
