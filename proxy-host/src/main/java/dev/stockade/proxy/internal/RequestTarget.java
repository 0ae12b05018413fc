package dev.stockade.proxy.internal;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;

/**
 * Where a request goes, as {@link TargetResolver} read it from the request target and Host: host, port,
 * path and query, or the problem that makes the request invalid (with as much of the target as was read,
 * for the audit line).
 */
record RequestTarget(String host, int port, String path, String query, String problem) {
    static RequestTarget of(FullHttpRequest req, TargetResolver.Listener listener, String tunnelHost, int tunnelPort,
                            String sni, int passthroughOriginPort) {
        TargetResolver.Context c = new TargetResolver.Context(listener, tunnelHost, tunnelPort, sni,
                passthroughOriginPort);
        TargetResolver.Result r = TargetResolver.resolve(req.uri(), req.headers().getAll(HttpHeaderNames.HOST), c);
        if (r instanceof TargetResolver.Invalid bad) {
            return new RequestTarget(bad.host(), bad.port(), bad.path(), null, bad.problem());
        }
        TargetResolver.Resolved ok = (TargetResolver.Resolved) r;
        return new RequestTarget(ok.host(), ok.port(), ok.path(), ok.query(), null);
    }
}
