package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.proxy.EgressReason;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;

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
    private final TargetResolver.Listener listener;
    private final Queue<FullHttpRequest> queue = new ArrayDeque<>();
    private boolean busy;

    private String sni;
    private ChannelFuture origin;

    public ForwardHandler(ProxyContext px, ConnectionInfo conn, Tunnel tunnel, boolean transparent) {
        this.px = px;
        this.conn = conn;
        this.tunnel = tunnel;
        this.transparent = transparent;
        this.listener = tunnel != null ? TargetResolver.Listener.TUNNEL
                : transparent ? TargetResolver.Listener.PASSTHROUGH_HTTP : TargetResolver.Listener.FORWARD;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done && done.isSuccess()) {
            sni = Hosts.serverName(ctx.pipeline().get(SslHandler.class), sni);
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
                Decision d = Decision.deny(ReasonCode.INTERNAL_ERROR, "internal error");
                record(exchange(req.method().name(), start), new Exchange.Refused(d, EgressReason.of(d.reason()), 500, 0, 0));
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
        if (tunnel == null && !transparent && req.method().equals(HttpMethod.CONNECT)) {
            connect(ctx, req, start);
            return;
        }
        request(ctx, req, start);
    }

    private void rejectMalformed(ChannelHandlerContext ctx, FullHttpRequest req, Throwable cause, long start) {
        Outbound.Malformed m = Outbound.malformed(cause);
        Decision d = Decision.deny(ReasonCode.INVALID_REQUEST, m.reason().code());
        record(exchange(null, start), new Exchange.Refused(d, m.reason(), m.status().code(), 0, 0));
        finish(ctx, Responses.text(m.status(), "stockade: request refused: " + m.reason().code() + "\n"), true);
    }

    // ---- CONNECT ---------------------------------------------------------------------------------

    private void connect(ChannelHandlerContext ctx, FullHttpRequest req, long start) {
        ConnectStep.Result r = ConnectStep.decide(px, conn, req.uri());
        if (r instanceof ConnectStep.Refuse no) {
            denyAndClose(ctx, new Exchange("connect", no.host(), no.port(), "CONNECT", null, start), no.decision(),
                    no.reason(), no.detail());
            return;
        }
        Tunnel t = ((ConnectStep.Open) r).tunnel();
        record(new Exchange("connect", t.host(), t.port(), "CONNECT", null, start),
                new Exchange.Forwarded(t.connection(), 200, 0, 0, null));
        FullHttpResponse ok = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                new HttpResponseStatus(200, "Connection Established"));
        Channel ch = ctx.channel();
        ch.writeAndFlush(ok).addListener((ChannelFutureListener) f -> {
            if (f.isSuccess()) {
                RequestPipeline.intercept(px, ch, conn, t);
            } else {
                ch.close();
            }
        });
    }

    // ---- requests ----------------------------------------------------------------------------------

    private void request(ChannelHandlerContext ctx, FullHttpRequest req, long start) {
        String scheme = tunnel == null ? "http" : "https";
        RequestTarget t = RequestTarget.of(req, listener, tunnel == null ? null : tunnel.host(),
                tunnel == null ? 0 : tunnel.port(), sni, px.config().passthroughHttpOriginPort());
        if (refusedUpFront(ctx, req, t, start)) {
            return;
        }
        EgressRequest er = Headers.egressRequest(req, scheme, t.host(), t.port(), tunnel == null ? null : sni,
                conn.caller(), t.path(), t.query(), px.config().inspectBodyBytes());
        Decision d = Decisions.request(px, conn, er);
        // what a GraphQL fence judged goes on the line, whatever the proxy does next (docs/graphql-fence.md)
        GraphqlSummary graphql = JudgedOperations.ofRequest(px.graphqlSummaries(), conn.program(), er, d);
        Exchange x = new Exchange(listener.auditName(), t.host(), t.port(), req.method().name(), t.path(), start,
                graphql);
        if (!d.allowed()) {
            deny(ctx, req, x, d, EgressReason.of(d.reason()), d.detail());
            return;
        }
        HttpHeaders out = req.headers().copy();
        String credentialProblem = CredentialInjector.applyTo(out, new CredentialInjector.Target(t.host(), t.port(),
                tunnel != null), conn.credentials(), tunnel != null ? conn.enforcement().boundCredentials() : List.of());
        if (credentialProblem != null) {
            deny(ctx, req, x, d, EgressReason.CREDENTIAL_NOT_ALLOWED, credentialProblem);
            return;
        }
        DialStep.Result dial = tunnel != null ? new DialStep.Open(tunnel.address())
                : DialStep.check(px, t.host(), t.port());
        if (dial instanceof DialStep.Refused no) {
            deny(ctx, req, x, d, EgressReason.DIAL_REFUSED, no.why());
            return;
        }
        InetAddress address = ((DialStep.Open) dial).address();
        // INVARIANT: the core's definition (RFC 6455) decides what is an upgrade; any other request that
        // carries Upgrade was judged as an ordinary one (query and body) and goes on without the header
        boolean upgrade = er.isWebSocketUpgrade();
        boolean police = upgrade && graphqlFenced(er);
        if (police) {
            // INVARIANT: no extension is negotiated on a policed socket, so every frame is plain text the
            // fence can read (permessage-deflate would hide the operation)
            out.remove(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS);
        }
        forward(ctx, req, t, x, d, out, address, upgrade, police ? er : null);
    }

    /** An invalid target or a halted organization: refused (and the connection closed) before any decision. */
    private boolean refusedUpFront(ChannelHandlerContext ctx, FullHttpRequest req, RequestTarget t, long start) {
        Decision d;
        if (t.problem() != null) {
            d = Decision.deny(ReasonCode.INVALID_REQUEST, t.problem());
        } else if (px.isHalted()) {
            d = Decision.deny(ReasonCode.HALTED, "the organization is halted");
        } else {
            return false;
        }
        denyAndClose(ctx, new Exchange(listener.auditName(), t.host() == null ? "-" : t.host(), t.port(),
                req.method().name(), t.path(), start), d, EgressReason.of(d.reason()), d.detail());
        return true;
    }

    private boolean graphqlFenced(EgressRequest er) {
        try {
            return conn.program().graphqlFenced(er);
        } catch (RuntimeException e) {
            return true; // fail closed: police the socket, whose frames the failing program then denies
        }
    }

    /** {@code policed}: the upgrade request whose websocket frames are judged one by one, else {@code null}. */
    private void forward(ChannelHandlerContext ctx, FullHttpRequest req, RequestTarget t, Exchange x, Decision d,
                         HttpHeaders out, InetAddress address, boolean upgrade, EgressRequest policed) {
        boolean keepClient = HttpUtil.isKeepAlive(req);
        FullHttpRequest outbound = Outbound.request(req, out, Hosts.authority(t.host(), t.port(), tunnel == null ? 80 : 443),
                t.query() == null ? t.path() : t.path() + "?" + t.query(), upgrade, px.originPool().enabled());
        long bytesIn = req.content().readableBytes();
        px.metrics().bytesIn(bytesIn);
        Channel client = ctx.channel();
        origin = Upstream.forward(px, client, outbound, conn.sandbox(), t.host(), address, t.port(), tunnel != null, keepClient, upgrade,
                policed != null, (status, bytesOut, closeClient, upgraded, subprotocol, error) -> {
                    // a response the origin cut short is audited as an error, not as the rule's allow
                    record(x, new Exchange.Forwarded(d, status, bytesIn, bytesOut, error));
                    if (upgraded && policed != null) {
                        Exchange ws = new Exchange("websocket", t.host(), t.port(), policed.method(), t.path(),
                                System.nanoTime());
                        Outbound.police(px, conn, client, origin.channel(), policed, subprotocol, ws);
                    } else if (upgraded) {
                        Outbound.splice(px, client, origin.channel());
                    } else {
                        ctx.executor().execute(() -> next(ctx, closeClient));
                    }
                });
    }

    // ---- decisions, denies, audit --------------------------------------------------------------------

    private void deny(ChannelHandlerContext ctx, FullHttpRequest req, Exchange x, Decision d, EgressReason reason,
                      String detail) {
        FullHttpResponse r = Responses.deny(x.host(), reason, d, detail);
        boolean close = !HttpUtil.isKeepAlive(req);
        if (!close) {
            r.headers().remove(HttpHeaderNames.CONNECTION);
        }
        record(x, new Exchange.Refused(d, reason, 403, req.content().readableBytes(), r.content().readableBytes()));
        finish(ctx, r, close);
    }

    private void denyAndClose(ChannelHandlerContext ctx, Exchange x, Decision d, EgressReason reason, String detail) {
        FullHttpResponse r = Responses.deny(x.host(), reason, d, detail);
        record(x, new Exchange.Refused(d, reason, 403, 0, r.content().readableBytes()));
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

    /** Writes the exchange's audit line through the one constructor ({@link Exchange#line}). */
    private void record(Exchange x, Exchange.Outcome outcome) {
        px.record(x.line(conn, outcome));
    }

    /** An exchange of this connection whose target is not read yet: the tunnel's, else unknown. */
    private Exchange exchange(String method, long start) {
        return new Exchange(listener.auditName(), tunnel != null ? tunnel.host() : "-", tunnel != null ? tunnel.port() : 0,
                method, null, start);
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
