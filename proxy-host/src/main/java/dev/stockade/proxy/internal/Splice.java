package dev.stockade.proxy.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * Copies bytes from one channel to its peer without looking at them, one read at a time so a slow
 * peer slows the source (backpressure). Closing either side closes both.
 */
public final class Splice extends ChannelInboundHandlerAdapter {
    private final Channel peer;
    private final AtomicLong counter;
    private final LongConsumer metric;
    private final Runnable onClose;
    private boolean forwarded;

    /**
     * @param peer    where bytes read here are written
     * @param counter bytes copied, for the audit line
     * @param metric  bytes copied, for the proxy's byte counter of this direction
     * @param onClose run once when this side closes; may be {@code null}
     */
    public Splice(Channel peer, AtomicLong counter, LongConsumer metric, Runnable onClose) {
        this.peer = peer;
        this.counter = counter;
        this.metric = metric;
        this.onClose = onClose;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(false);
        if (ctx.channel().isActive()) {
            ctx.read();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.read();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf buf)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        forwarded = true;
        counter.addAndGet(buf.readableBytes());
        metric.accept(buf.readableBytes());
        peer.writeAndFlush(buf).addListener((ChannelFutureListener) f -> {
            if (f.isSuccess()) {
                ctx.read();
            } else {
                ctx.close();
            }
        });
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // a read that produced nothing to copy (TLS consumed it) would otherwise end the read chain
        if (!forwarded) {
            ctx.read();
        }
        forwarded = false;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closeOnFlush(peer);
        if (onClose != null) {
            onClose.run();
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

    /** Flushes what is pending on a channel, then closes it. */
    public static void closeOnFlush(Channel ch) {
        if (ch.isActive()) {
            ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
