package dev.stockade.proxy.internal;

import dev.stockade.proxy.EgressReason;
import dev.stockade.proxy.internal.Upstream.Completion;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameEncoder;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The origin side of one forwarded request ({@link Upstream#forward}): relays the response to the client with
 * backpressure (the origin is read only when the client drained what was written), strips hop-by-hop headers,
 * switches both sides to a splice on an accepted upgrade, gives a connection read to its end back to the pool,
 * and reports how the exchange ended: a 502 before any answer byte, {@code origin-cut-short} after.
 */
final class OriginRelay extends ChannelInboundHandlerAdapter {
    private final ProxyContext px;
    private final Channel client;
    private final boolean keepClient;
    private final boolean upgrade;
    private final boolean frames;
    private final boolean head;
    private final Completion completion;
    private final OriginPool.Key key;
    /** Whether the connection may go back to the pool once this response was read to its end. */
    volatile boolean reusable;
    private Retry retry;
    private boolean originKeepAlive;
    private boolean released;
    private boolean started;
    private boolean finished;
    private boolean closeClient;
    private int status;
    private final AtomicLong bytesOut = new AtomicLong();
    private List<Object> early;
    // INVARIANT: touched only on the client's event loop, which the origin channel shares
    private int pendingWrites;

    OriginRelay(ProxyContext px, Channel client, boolean keepClient, boolean upgrade, boolean frames, boolean head,
                Completion completion, OriginPool.Key key, boolean reusable, Retry retry) {
        this.px = px;
        this.key = key;
        this.reusable = reusable;
        this.retry = retry;
        this.frames = frames;
        this.client = client;
        this.keepClient = keepClient;
        this.upgrade = upgrade;
        this.head = head;
        this.completion = completion;
        this.closeClient = !keepClient;
    }

    void failBeforeAnswer() {
        if (finished) {
            return;
        }
        finished = true;
        if (retry != null) {
            Retry r = retry;
            retry = null;
            r.run();
            return;
        }
        client.writeAndFlush(Responses.text(HttpResponseStatus.BAD_GATEWAY,
                "stockade: origin unreachable or failed verification\n"));
        completion.done(502, 0, true, false, null, null);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (early != null && msg instanceof ByteBuf raw) {
            early.add(raw); // origin bytes that followed the 101 in the same read
            return;
        }
        if (finished) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpResponse r) {
            started = true;
            if (retry != null) {
                retry.drop();
                retry = null;
            }
            status = r.status().code();
            // HTTP/1.0 without keep-alive, or Connection: close, ends the connection after this response
            originKeepAlive = HttpUtil.isKeepAlive(r) && status >= 200;
            if (status == 101 && upgrade) {
                switchProtocols(ctx, r);
                return;
            }
            sanitise(r);
        }
        if (msg instanceof HttpContent c) {
            bytesOut.addAndGet(c.content().readableBytes());
            px.metrics().bytesOut(c.content().readableBytes());
        }
        boolean last = msg instanceof LastHttpContent;
        pendingWrites++;
        client.write(msg).addListener((ChannelFutureListener) f -> {
            pendingWrites--;
            if (!f.isSuccess()) {
                if (!released) {
                    ctx.channel().close();
                }
            } else if (pendingWrites == 0 && !finished) {
                ctx.read();
            }
        });
        if (last) {
            finish(ctx.channel());
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        client.flush();
        // a read that yielded nothing for the client (a TLS record, a partial head) needs another
        // read; otherwise the next read waits for the client to drain what was written
        if (pendingWrites == 0 && !finished) {
            ctx.read();
        }
    }

    /** The response was relayed to its end: the connection goes back to the pool when both sides keep it. */
    private void finish(Channel origin) {
        finished = true;
        client.flush();
        boolean reuse = reusable && originKeepAlive && origin.isActive();
        completion.done(status, bytesOut.get(), closeClient, false, null, null);
        if (reuse) {
            released = true;
            origin.attr(Upstream.OWNER).set(null);
            if (client.attr(Upstream.CURRENT).get() == origin) {
                client.attr(Upstream.CURRENT).set(null);
            }
            px.originPool().release(key, origin);
        } else {
            origin.close();
        }
    }

    private void sanitise(HttpResponse r) {
        r.headers().remove(HttpHeaderNames.CONNECTION).remove(HttpHeaderNames.KEEP_ALIVE)
                .remove(HttpHeaderNames.PROXY_AUTHENTICATE).remove("Proxy-Connection");
        boolean bodiless = head || status == 204 || status == 304 || status < 200;
        if (!bodiless && !HttpUtil.isContentLengthSet(r) && !HttpUtil.isTransferEncodingChunked(r)) {
            // a close-delimited origin body: frame it for the client so the connection can be reused
            HttpUtil.setTransferEncodingChunked(r, true);
        }
        if (closeClient) {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
    }

    private void switchProtocols(ChannelHandlerContext ctx, HttpResponse r) {
        finished = true;
        early = new ArrayList<>();
        Channel origin = ctx.channel();
        String subprotocol = r.headers().get(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL);
        client.writeAndFlush(r).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                origin.close();
                return;
            }
            // the origin side is swapped here, before done() swaps the client side, so that no client
            // frame can reach the origin pipeline while it still speaks HTTP
            origin.pipeline().replace(this, "splice", new Splice(client, bytesOut, px.metrics()::bytesOut, null));
            origin.pipeline().remove("http");
            if (frames) {
                origin.pipeline().addBefore("splice", "ws-encoder", new WebSocket08FrameEncoder(true));
            }
            completion.done(101, 0, false, true, subprotocol, null);
            for (Object o : early) {
                client.write(o);
            }
            client.flush();
            early = null;
        });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!finished) {
            if (!started) {
                failBeforeAnswer();
            } else {
                // a stream cut short fails the response: the client must not take it as complete
                finished = true;
                client.close();
                completion.done(status, bytesOut.get(), true, false, null, EgressReason.ORIGIN_CUT_SHORT);
            }
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            ctx.close();
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    /** A second send of a bodiless idempotent request, holding one reference to it until used or dropped. */
    static final class Retry {
        private final FullHttpRequest request;
        private final Runnable action;

        Retry(FullHttpRequest request, Runnable action) {
            this.request = request;
            this.action = action;
        }

        void run() {
            action.run();
        }

        void drop() {
            ReferenceCountUtil.release(request);
        }
    }
}
