package dev.stockade.proxy.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * Copies bytes from one channel to its peer without looking at them. Must run on its channel's
 * event loop (no executor group). Reads flow continuously ({@code AUTO_READ}) into buffers of up to
 * {@link #LARGEST_READ} bytes; each read is written to the peer, and what one wake-up read is flushed
 * once, at the end of the read loop (one gathering write instead of one per buffer). Backpressure: when the peer's outbound buffer passes its high
 * water mark this side stops reading, and resumes when the peer turns writable again (the peer's
 * own {@code Splice} sees that) or, when the peer is not a splice, once the write that filled it
 * has been flushed. An error or a close on either side closes both; with {@code halfClose} (raw TCP
 * on both sides) an end of input is passed on as a shutdown of the peer's output instead, and both
 * close when both directions have ended.
 */
public final class Splice extends ChannelInboundHandlerAdapter {
    /** Outbound buffer bounds of a spliced channel: enough in flight to keep a loopback pipe full. */
    static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(128 * 1024, 512 * 1024);
    /** Largest single read: bulk transfers move in few large buffers, small exchanges stay small. */
    static final int LARGEST_READ = 256 * 1024;

    private final Channel peer;
    private final AtomicLong counter;
    private final LongConsumer metric;
    private final Runnable onClose;
    private final boolean halfClose;
    /** Closes this side when a write to the peer fails; one instance, not one per write. */
    private ChannelFutureListener closeOnWriteFailure;

    /**
     * @param peer    where bytes read here are written
     * @param counter bytes copied, for the audit line
     * @param metric  bytes copied, for the proxy's byte counter of this direction
     * @param onClose run once when this side closes; may be {@code null}
     */
    public Splice(Channel peer, AtomicLong counter, LongConsumer metric, Runnable onClose) {
        this(peer, counter, metric, onClose, false);
    }

    /** As above; {@code halfClose}: both channels carry raw TCP, so an end of input half-closes the peer. */
    public Splice(Channel peer, AtomicLong counter, LongConsumer metric, Runnable onClose, boolean halfClose) {
        this.peer = peer;
        this.counter = counter;
        this.metric = metric;
        this.onClose = onClose;
        this.halfClose = halfClose;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        Channel ch = ctx.channel();
        ch.config().setWriteBufferWaterMark(WATER_MARK);
        ch.config().setRecvByteBufAllocator(new AdaptiveRecvByteBufAllocator(2048, 16 * 1024, LARGEST_READ));
        closeOnWriteFailure = f -> {
            if (!f.isSuccess()) {
                ch.close();
            }
        };
        if (halfClose) {
            ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        }
        ch.config().setAutoRead(true);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf buf)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        int n = buf.readableBytes();
        if (n == 0) {
            buf.release();
            return;
        }
        counter.addAndGet(n);
        metric.accept(n);
        ChannelFuture f = peer.write(buf);
        if (!peer.isWritable()) {
            Channel self = ctx.channel();
            self.config().setAutoRead(false);
            peer.flush();
            f.addListener((ChannelFutureListener) done -> {
                if (done.isSuccess()) {
                    self.config().setAutoRead(true); // everything queued before it is out: the peer drained
                } else {
                    self.close();
                }
            });
            // INVARIANT: re-check after pausing, so a drain that happened in between cannot leave reads off
            if (peer.isWritable()) {
                self.config().setAutoRead(true);
            }
        } else {
            f.addListener(closeOnWriteFailure);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        peer.flush(); // INVARIANT: every buffer written in channelRead is flushed by the end of its read loop
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        // this channel is the peer's destination: let the peer read again once this one has room
        if (ctx.channel().isWritable() && peer.pipeline().get(Splice.class) != null) {
            peer.config().setAutoRead(true);
        }
        ctx.fireChannelWritabilityChanged();
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
        } else if (evt instanceof ChannelInputShutdownEvent) {
            inputEnded(ctx.channel());
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    /** This side sent its FIN: pass it on once what was read is flushed; close when both ways ended. */
    private void inputEnded(Channel self) {
        if (!halfClose || !(peer instanceof DuplexChannel p) || !(self instanceof DuplexChannel s)) {
            self.close();
            return;
        }
        if (!peer.isActive()) {
            self.close();
            return;
        }
        peer.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                self.close();
                return;
            }
            p.shutdownOutput().addListener((ChannelFutureListener) sf -> {
                if (!sf.isSuccess() || p.isInputShutdown()) {
                    peer.close();
                    self.close();
                }
            });
        });
        if (s.isOutputShutdown()) {
            closeOnFlush(peer);
            self.close();
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
