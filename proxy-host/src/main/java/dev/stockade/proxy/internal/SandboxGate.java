package dev.stockade.proxy.internal;

import dev.stockade.proxy.EgressReason;
import dev.stockade.proxy.SandboxRegistry;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.ReferenceCountUtil;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The forward port's first step on a proxy serving several sandboxes: the connection's first request
 * names its sandbox with {@code Proxy-Authorization} and the sandbox's connection cap is applied. Once
 * the connection is bound it leaves the pipeline; a refusal answers 407 or 429 and closes.
 */
public final class SandboxGate extends ChannelInboundHandlerAdapter {
    private final ProxyContext px;
    private final ConnectionInfo conn;
    private boolean refused;

    public SandboxGate(ProxyContext px, ConnectionInfo conn) {
        this.px = px;
        this.conn = conn;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (!(msg instanceof FullHttpRequest req) || !req.decoderResult().isSuccess()) {
            ctx.fireChannelRead(msg); // the forward handler refuses what did not decode
            return;
        }
        long start = System.nanoTime();
        Exchange x = new Exchange("http", Responses.safe(req.uri()), 0, req.method().name(), null, start);
        Optional<SandboxRegistry.Sandbox> sandbox = px.sandboxes().identify(req.headers().get(HttpHeaderNames.PROXY_AUTHORIZATION));
        if (sandbox.isEmpty()) {
            FullHttpResponse r = Responses.text(HttpResponseStatus.PROXY_AUTHENTICATION_REQUIRED,
                    "stockade: proxy authentication required: send the sandbox token in Proxy-Authorization\n");
            r.headers().set(HttpHeaderNames.PROXY_AUTHENTICATE, "Basic realm=\"stockade\"");
            refuse(ctx, req, x, EgressReason.PROXY_AUTH_REQUIRED, r);
            return;
        }
        int cap = px.config().maxConnectionsPerSandbox();
        AtomicLong count = px.sandboxConnections(sandbox.get().name());
        conn.identify(sandbox.get());
        // INVARIANT: counted once per connection, released when it closes
        if (count.incrementAndGet() > cap && cap > 0) {
            count.decrementAndGet();
            refuse(ctx, req, x, EgressReason.CONNECTION_LIMIT, Responses.text(HttpResponseStatus.TOO_MANY_REQUESTS,
                    "stockade: the sandbox has too many open connections\n"));
            return;
        }
        ctx.channel().closeFuture().addListener(f -> count.decrementAndGet());
        ctx.pipeline().remove(this);
        ctx.fireChannelRead(req);
    }

    private void refuse(ChannelHandlerContext ctx, FullHttpRequest req, Exchange x, EgressReason why,
                        FullHttpResponse r) {
        refused = true;
        ReferenceCountUtil.release(req);
        r.headers().set(Responses.DENY_HEADER, why.code() + "; policy=-; entry=-1; rule=-1");
        px.record(x.line(conn, Exchange.Refused.by(why, why.status())));
        ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
    }
}
