package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.eval.RequestTarget;
import dev.stockade.policy.model.Transport;
import dev.stockade.proxy.AuditEvent;
import dev.stockade.proxy.HostRefusal;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLSession;

/**
 * Handles HTTP requests on the forward-proxy port (plain absolute-form requests and CONNECT) and
 * inside an intercepted tunnel. Requests of one connection are handled one at a time, in order.
 * On the forward port it runs on a blocking-capable executor: DNS and caller resolution happen here,
 * off the event loop. Inside an intercepted tunnel it runs on the connection's event loop: the caller
 * was resolved and the origin address checked at the CONNECT, so nothing it does there blocks, and
 * each request saves two thread hand-offs.
 */
public final class ForwardHandler extends ChannelInboundHandlerAdapter {

    /** An intercepted tunnel: the CONNECT target, the address checked for it, and its connection decision. */
    public record Tunnel(String host, int port, InetAddress address, Decision connection) {
    }

    private final ProxyContext px;
    private final ConnectionInfo conn;
    private final Tunnel tunnel;
    private final boolean transparent;
    private final Queue<FullHttpRequest> queue = new ArrayDeque<>();
    private boolean busy;

    private String sni;
    private ChannelFuture origin;

    public ForwardHandler(ProxyContext px, ConnectionInfo conn, Tunnel tunnel, boolean transparent) {
        this.px = px;
        this.conn = conn;
        this.tunnel = tunnel;
        this.transparent = transparent;
    }

    /** Installs the HTTP codec and this handler on a pipeline (after whatever TLS sits in front). */
    public static void install(ProxyContext px, ChannelPipeline p, ConnectionInfo conn, Tunnel tunnel) {
        install(px, p, conn, tunnel, false);
    }

    /**
     * Installs the HTTP codec and this handler; {@code transparent} serves origin-form requests whose
     * Host header names the target (plain HTTP seen on the passthrough listener).
     */
    public static void install(ProxyContext px, ChannelPipeline p, ConnectionInfo conn, Tunnel tunnel,
                               boolean transparent) {
        String listener = tunnel != null ? "intercepted" : transparent ? "passthrough-http" : "http";
        RequestDeadline deadline = new RequestDeadline(px.config.requestHeadTimeout(), px.config.requestBodyTimeout(),
                (ctx, phase) -> {
                    // a client that trickles a request head or body is cut off, whatever the idle timeout
                    px.record(new AuditEvent(java.time.Instant.now(), listener, conn.sandbox(), conn.caller(),
                            tunnel != null ? tunnel.host() : "-", tunnel != null ? tunnel.port() : 0, null, null,
                            "deny", null, null, -1, -1, HostRefusal.REQUEST_TIMEOUT.code(), 408, 0, 0, 0));
                    ctx.channel().close();
                });
        p.addLast("deadline", deadline);
        p.addLast("http", new HttpServerCodec(8192, px.config.maxHeaderBytes(), 8192));
        p.addLast("deadline-mark", deadline.marker());
        p.addLast("aggregate", new HttpObjectAggregator(px.config.maxBodyBytes()) {
            @Override
            protected void handleOversizedMessage(ChannelHandlerContext ctx, io.netty.handler.codec.http.HttpMessage m)
                    throws Exception {
                // answered 413 here, before any decision: audit it like every other refusal
                String host = tunnel != null ? tunnel.host() : "-";
                String method = m instanceof io.netty.handler.codec.http.HttpRequest r ? r.method().name() : null;
                Decision d = Decision.deny(ReasonCode.INVALID_REQUEST, "body too large");
                px.record(new AuditEvent(java.time.Instant.now(), listener, conn.sandbox(), conn.caller(), host,
                        tunnel != null ? tunnel.port() : 0, method, null, "deny", null, null, -1, -1,
                        HostRefusal.BODY_TOO_LARGE.code(), 413, 0, 0, 0));
                super.handleOversizedMessage(ctx, m);
            }
        });
        ForwardHandler handler = new ForwardHandler(px, conn, tunnel, transparent);
        if (tunnel != null) {
            p.addLast("forward", handler); // INVARIANT: nothing on a tunnel's request path blocks (see above)
        } else {
            p.addLast(px.blocking, "forward", handler);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done && done.isSuccess()) {
            SslHandler ssl = ctx.pipeline().get(SslHandler.class);
            SSLSession session = ssl == null ? null : ssl.engine().getSession();
            if (session instanceof ExtendedSSLSession ext) {
                for (SNIServerName n : ext.getRequestedServerNames()) {
                    if (n instanceof SNIHostName h) {
                        sni = Hosts.normalise(h.getAsciiName());
                        if (sni == null) {
                            sni = "";
                        }
                    }
                }
            }
        } else if (evt instanceof io.netty.handler.timeout.IdleStateEvent) {
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest req)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        queue.add(req);
        drain(ctx);
    }

    private void drain(ChannelHandlerContext ctx) {
        while (!busy && !queue.isEmpty()) {
            FullHttpRequest req = queue.poll();
            busy = true;
            ctx.channel().config().setAutoRead(false);
            long start = System.nanoTime();
            try {
                handle(ctx, req, start);
            } catch (RuntimeException e) {
                // fail closed: an unexpected error denies and closes, never reaching the origin
                String host = tunnel != null ? tunnel.host() : "-";
                Decision d = Decision.deny(ReasonCode.INTERNAL_ERROR, "internal error");
                audit(req, host, tunnel != null ? tunnel.port() : 0, null, "deny", d, d.reason().code(), 500, start);
                finish(ctx, Responses.text(HttpResponseStatus.INTERNAL_SERVER_ERROR,
                        "stockade: internal error, request denied\n"), true);
            } finally {
                ReferenceCountUtil.release(req);
            }
        }
    }

    private void handle(ChannelHandlerContext ctx, FullHttpRequest req, long start) {
        DecoderResult dr = req.decoderResult();
        if (!dr.isSuccess()) {
            rejectMalformed(ctx, req, dr.cause(), start);
            return;
        }
        if (tunnel == null && !transparent && px.sandboxes != null && !conn.identified() && !identify(ctx, req, start)) {
            return;
        }
        if (tunnel == null && !transparent && req.method().equals(HttpMethod.CONNECT)) {
            connect(ctx, req, start);
            return;
        }
        request(ctx, req, start);
    }

    private void rejectMalformed(ChannelHandlerContext ctx, FullHttpRequest req, Throwable cause, long start) {
        HttpResponseStatus status;
        String reason;
        if (cause instanceof TooLongHttpHeaderException) {
            status = HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
            reason = HostRefusal.HEADER_TOO_LARGE.code();
        } else if (cause instanceof TooLongHttpLineException) {
            status = HttpResponseStatus.REQUEST_URI_TOO_LONG;
            reason = HostRefusal.REQUEST_LINE_TOO_LONG.code();
        } else if (cause instanceof TooLongFrameException) {
            status = HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
            reason = HostRefusal.HEADER_TOO_LARGE.code();
        } else {
            status = HttpResponseStatus.BAD_REQUEST;
            reason = ReasonCode.INVALID_REQUEST.code();
        }
        String host = tunnel != null ? tunnel.host() : "-";
        Decision d = Decision.deny(ReasonCode.INVALID_REQUEST, reason);
        record(listener(), host, tunnel != null ? tunnel.port() : 0, null, null, "deny", d, reason, status.code(),
                0, 0, start);
        finish(ctx, Responses.text(status, "stockade: request refused: " + reason + "\n"), true);
    }

    /** Binds the connection to the sandbox its Proxy-Authorization names; false when refused. */
    private boolean identify(ChannelHandlerContext ctx, FullHttpRequest req, long start) {
        var sandbox = px.sandboxes.identify(req.headers().get(HttpHeaderNames.PROXY_AUTHORIZATION));
        String host = Responses.safe(req.uri());
        if (sandbox.isEmpty()) {
            Decision d = Decision.deny(ReasonCode.INVALID_REQUEST, "proxy authentication required");
            FullHttpResponse r = Responses.text(HttpResponseStatus.PROXY_AUTHENTICATION_REQUIRED,
                    "stockade: proxy authentication required: send the sandbox token in Proxy-Authorization\n");
            r.headers().set(HttpHeaderNames.PROXY_AUTHENTICATE, "Basic realm=\"stockade\"");
            r.headers().set(Responses.DENY_HEADER, HostRefusal.PROXY_AUTH_REQUIRED.code() + "; policy=-; entry=-1; rule=-1");
            record(listener(), host, 0, req.method().name(), null, "deny", d, HostRefusal.PROXY_AUTH_REQUIRED.code(), 407, 0, 0, start);
            finish(ctx, r, true);
            return false;
        }
        int cap = px.config.maxConnectionsPerSandbox();
        AtomicLong count = px.sandboxConnections.computeIfAbsent(sandbox.get().name(), k -> new AtomicLong());
        // INVARIANT: counted once per connection, released when it closes
        if (count.incrementAndGet() > cap && cap > 0) {
            count.decrementAndGet();
            conn.identify(sandbox.get());
            Decision d = Decision.deny(ReasonCode.INVALID_REQUEST, "connection limit");
            FullHttpResponse r = Responses.text(HttpResponseStatus.TOO_MANY_REQUESTS,
                    "stockade: the sandbox has too many open connections\n");
            r.headers().set(Responses.DENY_HEADER, HostRefusal.CONNECTION_LIMIT.code() + "; policy=-; entry=-1; rule=-1");
            record(listener(), host, 0, req.method().name(), null, "deny", d, HostRefusal.CONNECTION_LIMIT.code(), 429, 0, 0, start);
            finish(ctx, r, true);
            return false;
        }
        ctx.channel().closeFuture().addListener(f -> count.decrementAndGet());
        conn.identify(sandbox.get());
        return true;
    }

    // ---- CONNECT ---------------------------------------------------------------------------------

    private void connect(ChannelHandlerContext ctx, FullHttpRequest req, long start) {
        RequestTarget parsed = RequestTarget.parse(req.uri(), true);
        if (!(parsed instanceof RequestTarget.Authority target)) {
            Decision d = Decision.deny(ReasonCode.INVALID_REQUEST, "bad CONNECT target");
            denyAndClose(ctx, "connect", Responses.safe(req.uri()), 0, "CONNECT", null, d, d.reason().code(),
                    "CONNECT target must be host:port", start);
            return;
        }
        String host = target.host().value();
        int port = target.port();
        Decision d = connectionDecision(EgressRequest.connection("https", host, port, null, conn.caller()));
        if (!d.allowed()) {
            denyAndClose(ctx, "connect", host, port, "CONNECT", null, d, d.reason().code(), d.detail(), start);
            return;
        }
        if (!d.intercept() || d.transport() != Transport.UPSTREAM) {
            // a CONNECT the proxy would have to splice blindly: only upstream hosts go through here
            denyAndClose(ctx, "connect", host, port, "CONNECT", null, d, HostRefusal.NOT_ROUTED_UPSTREAM.code(),
                    "host is not routed upstream; CONNECT through the forward proxy is refused", start);
            return;
        }
        DialGuard.Outcome dial = px.dialGuard.check(host);
        if (dial instanceof DialGuard.Refused refused) {
            denyAndClose(ctx, "connect", host, port, "CONNECT", null, d, HostRefusal.DIAL_REFUSED.code(), refused.why(), start);
            return;
        }
        InetAddress address = ((DialGuard.Allowed) dial).address();
        if (px.isSelf(address, port)) {
            denyAndClose(ctx, "connect", host, port, "CONNECT", null, d, HostRefusal.DIAL_REFUSED.code(), "the target is this proxy", start);
            return;
        }
        record("connect", host, port, "CONNECT", null, "allow", d, d.reason().code(), 200, 0, 0, start);
        Tunnel t = new Tunnel(host, port, address, d);
        FullHttpResponse ok = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                new HttpResponseStatus(200, "Connection Established"));
        Channel ch = ctx.channel();
        ch.writeAndFlush(ok).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                ch.close();
                return;
            }
            ChannelPipeline p = ch.pipeline();
            removeRequestHandlers(p);
            p.remove("http");
            SslHandler ssl = px.ca.serverContext(host).newHandler(ch.alloc());
            ssl.setHandshakeTimeoutMillis(px.config.handshakeTimeout().toMillis());
            p.addLast("tls", ssl);
            install(px, p, conn, t);
            ch.config().setAutoRead(true);
        });
    }

    // ---- requests ----------------------------------------------------------------------------------

    private void request(ChannelHandlerContext ctx, FullHttpRequest req, long start) {
        String scheme = tunnel == null ? "http" : "https";
        Target t = target(req);
        if (t.problem != null) {
            Decision d = Decision.deny(ReasonCode.INVALID_REQUEST, t.problem);
            denyAndClose(ctx, listener(), t.host == null ? "-" : t.host, t.port, req.method().name(), t.path, d,
                    d.reason().code(), t.problem, start);
            return;
        }
        if (px.isHalted()) {
            Decision d = Decision.deny(ReasonCode.HALTED, "the organization is halted");
            denyAndClose(ctx, listener(), t.host, t.port, req.method().name(), t.path, d, d.reason().code(),
                    d.detail(), start);
            return;
        }
        byte[] body = null;
        boolean truncated = false;
        int len = req.content().readableBytes();
        if (len > 0) {
            int n = Math.min(len, px.config.inspectBodyBytes());
            body = ByteBufUtil.getBytes(req.content(), req.content().readerIndex(), n);
            truncated = n < len;
        }
        EgressRequest er = new EgressRequest(scheme, t.host, t.port, tunnel == null ? null : blankToNull(sni),
                conn.caller(), req.method().name(), t.path, t.query, lowerCased(req.headers()), body, truncated);
        Decision d = requestDecision(er);
        if (!d.allowed()) {
            deny(ctx, req, t, d, d.reason().code(), d.detail(), start);
            return;
        }
        HttpHeaders out = req.headers().copy();
        String credentialProblem = applyCredentials(out, t.host, t.port);
        if (credentialProblem != null) {
            deny(ctx, req, t, d, HostRefusal.CREDENTIAL_NOT_ALLOWED.code(), credentialProblem, start);
            return;
        }
        InetAddress address;
        if (tunnel != null) {
            address = tunnel.address();
        } else {
            DialGuard.Outcome dial = px.dialGuard.check(t.host);
            if (dial instanceof DialGuard.Refused refused) {
                deny(ctx, req, t, d, HostRefusal.DIAL_REFUSED.code(), refused.why(), start);
                return;
            }
            address = ((DialGuard.Allowed) dial).address();
            if (px.isSelf(address, t.port)) {
                deny(ctx, req, t, d, HostRefusal.DIAL_REFUSED.code(), "the target is this proxy", start);
                return;
            }
        }
        // INVARIANT: the core's definition (RFC 6455) decides what is an upgrade; any other request that
        // carries Upgrade was judged as an ordinary one (query and body) and goes on without the header
        boolean upgrade = er.isWebSocketUpgrade();
        boolean police = upgrade && graphqlFenced(er);
        if (police) {
            // INVARIANT: no extension is negotiated on a policed socket, so every frame is plain text the
            // fence can read (permessage-deflate would hide the operation)
            out.remove(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS);
        }
        forward(ctx, req, t, d, out, address, upgrade, police ? er : null, start);
    }

    private boolean graphqlFenced(EgressRequest er) {
        try {
            return conn.decider().graphqlFenced(er);
        } catch (RuntimeException e) {
            return true; // fail closed: police the socket, whose frames the failing decider then denies
        }
    }

    /** {@code policed}: the upgrade request whose websocket frames are judged one by one, else {@code null}. */
    private void forward(ChannelHandlerContext ctx, FullHttpRequest req, Target t, Decision d, HttpHeaders out,
                         InetAddress address, boolean upgrade, EgressRequest policed, long start) {
        boolean keepClient = HttpUtil.isKeepAlive(req);
        stripHopByHop(out);
        out.set(HttpHeaderNames.HOST, Hosts.authority(t.host, t.port, tunnel == null ? 80 : 443));
        if (upgrade) {
            out.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE);
            out.set(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET);
        } else if (!px.originPool.enabled()) {
            out.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        // otherwise HTTP/1.1 keep-alive: the connection may serve this sandbox's next request to this origin
        String uri = t.query == null ? t.path : t.path + "?" + t.query;
        FullHttpRequest outbound = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, req.method(), uri,
                req.content().retainedDuplicate(), out, req.trailingHeaders().copy());
        long bytesIn = req.content().readableBytes();
        px.metrics.bytesIn(bytesIn);
        if (bytesIn > 0 || !(req.method().equals(HttpMethod.GET) || req.method().equals(HttpMethod.HEAD))) {
            HttpUtil.setContentLength(outbound, bytesIn);
        }
        Channel client = ctx.channel();
        origin = Upstream.forward(px, client, outbound, conn.sandbox(), t.host, address, t.port, tunnel != null, keepClient, upgrade,
                policed != null, (status, bytesOut, closeClient, upgraded, subprotocol, error) -> {
                    // a response the origin cut short is audited as an error, not as the rule's allow
                    record(listener(), t.host, t.port, req.method().name(), t.path, "allow", d,
                            error != null ? error : d.reason().code(), status, bytesIn, bytesOut, start);
                    if (upgraded && policed != null) {
                        policeClient(client, policed, subprotocol, t);
                    } else if (upgraded) {
                        spliceClient(client);
                    } else {
                        ctx.executor().execute(() -> next(ctx, closeClient));
                    }
                });
    }

    /** Removes the per-request handlers once the connection stops carrying HTTP requests (the codec stays). */
    private static void removeRequestHandlers(ChannelPipeline p) {
        p.remove("forward");
        p.remove("aggregate");
        p.remove("deadline-mark");
        p.remove("deadline");
    }

    private void spliceClient(Channel client) {
        ChannelPipeline p = client.pipeline();
        Channel o = origin.channel();
        removeRequestHandlers(p);
        p.replace("http", "splice", new Splice(o, new java.util.concurrent.atomic.AtomicLong(), px.metrics::bytesIn, null));
    }

    /** Judges every client text message of a GraphQL websocket; origin bytes stay spliced. */
    private void policeClient(Channel client, EgressRequest upgrade, String subprotocol, Target t) {
        ChannelPipeline p = client.pipeline();
        Channel o = origin.channel();
        removeRequestHandlers(p);
        long opened = System.nanoTime();
        WebSocketFence.install(px, p, conn, o, upgrade, subprotocol, new AtomicLong(), new WebSocketFence.Audit() {
            @Override
            public void denied(Decision decision, String reason, int closeCode) {
                record("websocket", t.host, t.port, upgrade.method(), t.path, "deny", decision, reason, closeCode, 0, 0,
                        opened);
            }

            @Override
            public void allowed(Decision decision, long bytes) {
                record("websocket", t.host, t.port, upgrade.method(), t.path, "allow", decision,
                        decision.reason().code(), 0, bytes, 0, opened);
            }
        });
    }

    // ---- credentials -------------------------------------------------------------------------------

    /** Applies credentials to the outbound headers; a problem text (no secret) when refused. */
    private String applyCredentials(HttpHeaders out, String host, int port) {
        List<Map.Entry<String, String>> headers = new ArrayList<>(out.entries());
        String problem = CredentialInjector.apply(headers, new CredentialInjector.Target(host, port, tunnel != null),
                px.credentials, tunnel != null ? conn.decider().boundCredentials() : List.of());
        if (problem == null) {
            out.clear();
            headers.forEach(e -> out.add(e.getKey(), e.getValue()));
        }
        return problem;
    }

    // ---- the target ---------------------------------------------------------------------------------

    /** The mutable view of a resolved target the rest of this handler reads. */
    private static final class Target {
        String host;
        int port;
        String path;
        String query;
        String problem;
    }

    private Target target(FullHttpRequest req) {
        TargetResolver.Listener listener = tunnel != null ? TargetResolver.Listener.TUNNEL
                : transparent ? TargetResolver.Listener.PASSTHROUGH_HTTP : TargetResolver.Listener.FORWARD;
        TargetResolver.Context c = new TargetResolver.Context(listener, tunnel == null ? null : tunnel.host(),
                tunnel == null ? 0 : tunnel.port(), sni, px.config.passthroughHttpOriginPort());
        TargetResolver.Result r = TargetResolver.resolve(req.uri(), req.headers().getAll(HttpHeaderNames.HOST), c);
        Target t = new Target();
        if (r instanceof TargetResolver.Resolved ok) {
            t.host = ok.host();
            t.port = ok.port();
            t.path = ok.path();
            t.query = ok.query();
        } else if (r instanceof TargetResolver.Invalid bad) {
            t.host = bad.host();
            t.port = bad.port();
            t.path = bad.path();
            t.problem = bad.problem();
        }
        return t;
    }

    // ---- decisions, denies, audit --------------------------------------------------------------------

    private Decision connectionDecision(EgressRequest r) {
        if (px.isHalted()) {
            return Decision.deny(ReasonCode.HALTED, "the organization is halted");
        }
        long start = System.nanoTime();
        try {
            Decision d = conn.decider().decideConnection(r);
            return d == null ? Decision.deny(ReasonCode.INTERNAL_ERROR, "no decision") : d;
        } catch (RuntimeException e) {
            return Decision.deny(ReasonCode.INTERNAL_ERROR, "the decision failed");
        } finally {
            px.metrics.decided("connection", start);
        }
    }

    private Decision requestDecision(EgressRequest r) {
        long start = System.nanoTime();
        try {
            Decision d = conn.decider().decide(r);
            return d == null ? Decision.deny(ReasonCode.INTERNAL_ERROR, "no decision") : d;
        } catch (RuntimeException e) {
            return Decision.deny(ReasonCode.INTERNAL_ERROR, "the decision failed");
        } finally {
            px.metrics.decided("request", start);
        }
    }

    private void deny(ChannelHandlerContext ctx, FullHttpRequest req, Target t, Decision d, String reason,
                      String detail, long start) {
        FullHttpResponse r = Responses.deny(t.host, reason, d, detail);
        boolean close = !HttpUtil.isKeepAlive(req);
        if (!close) {
            r.headers().remove(HttpHeaderNames.CONNECTION);
        }
        record(listener(), t.host, t.port, req.method().name(), t.path, "deny", d, reason, 403,
                req.content().readableBytes(), r.content().readableBytes(), start);
        finish(ctx, r, close);
    }

    private void denyAndClose(ChannelHandlerContext ctx, String listener, String host, int port, String method,
                              String path, Decision d, String reason, String detail, long start) {
        FullHttpResponse r = Responses.deny(host, reason, d, detail);
        record(listener, host, port, method, path, "deny", d, reason, 403, 0, r.content().readableBytes(), start);
        finish(ctx, r, true);
    }

    private void finish(ChannelHandlerContext ctx, FullHttpResponse r, boolean close) {
        ctx.channel().writeAndFlush(r).addListener((ChannelFutureListener) f ->
                ctx.executor().execute(() -> next(ctx, close || !f.isSuccess())));
    }

    private void next(ChannelHandlerContext ctx, boolean close) {
        busy = false;
        origin = null;
        if (close) {
            ctx.channel().close();
            queue.forEach(ReferenceCountUtil::release);
            queue.clear();
            return;
        }
        ctx.channel().config().setAutoRead(true);
        drain(ctx);
    }

    private void audit(FullHttpRequest req, String host, int port, String path, String verdict, Decision d,
                       String reason, int status, long start) {
        record(listener(), host, port, req.method().name(), path, verdict, d, reason, status, 0, 0, start);
    }

    private void record(String listener, String host, int port, String method, String path, String verdict,
                        Decision d, String reason, int status, long in, long out, long start) {
        px.record(new AuditEvent(java.time.Instant.now(), listener, conn.sandbox(), conn.caller(), host, port,
                method, path, verdict, d.transport() == null ? null : d.transport().wire(), d.policy(),
                d.entryIndex(), d.ruleIndex(), reason, status, in, out, (System.nanoTime() - start) / 1_000_000));
    }

    private String listener() {
        return tunnel != null ? "intercepted" : transparent ? "passthrough-http" : "http";
    }

    private static String blankToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static Map<String, List<String>> lowerCased(HttpHeaders h) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : h) {
            m.computeIfAbsent(e.getKey().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(e.getValue());
        }
        m.replaceAll((k, v) -> List.copyOf(v));
        return m;
    }

    private static void stripHopByHop(HttpHeaders h) {
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

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // the origin connection serving a request of this client closes with it (a pooled idle one stays)
        Upstream.abandon(ctx.channel());
        queue.forEach(ReferenceCountUtil::release);
        queue.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
