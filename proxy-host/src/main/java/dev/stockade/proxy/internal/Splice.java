package dev.stockade.proxy.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
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
 *
 * <p>Kernel splice: the two directions of a raw tunnel share a {@link Link}. When both channels are
 * native epoll channels on one event loop and this side's reads are counted by a {@link ReadCounter},
 * a direction that has copied {@link #KERNEL_AFTER} bytes hands the rest to Netty's
 * {@code spliceTo}: {@code splice(2)} moves them socket to pipe to socket and they never enter the
 * JVM. Bytes are then counted from the {@link ReadCounter} at the end of each wake-up. Netty's splice
 * cannot be stopped and reports neither an end of input nor a full pipe, so this class settles both
 * at the end of every wake-up that moved nothing: if the peer still has splice writes queued the pipe
 * may be full, so reading pauses until the peer has flushed them (a shut-down socket stays readable,
 * and reading on would spin); if nothing is queued the pipe is empty, so after the FIN the splice that
 * moved nothing saw the true end, and only then is the FIN passed on. Idle detection counts a tunnel
 * whose bytes moved since the last idle event as busy (spliced bytes bypass the idle handler).
 */
public final class Splice extends ChannelInboundHandlerAdapter {
    /** Outbound buffer bounds of a spliced channel: enough in flight to keep a loopback pipe full. */
    static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(128 * 1024, 512 * 1024);
    /** Largest single read: bulk transfers move in few large buffers, small exchanges stay small. */
    static final int LARGEST_READ = 256 * 1024;
    /**
     * Bytes a raw tunnel carries one way through the JVM before that direction moves to
     * {@code splice(2)}: handshakes and short exchanges stay on the copy path and cost no pipe (two
     * descriptors per direction); bulk transfers leave it after the first quarter MiB.
     */
    static final long KERNEL_AFTER = 256 * 1024;

    /** What the two directions of a raw tunnel share: their byte counts and whether either moved to the kernel. */
    public static final class Link {
        private final AtomicLong in;
        private final AtomicLong out;
        private final Runnable kernelStarted;
        private boolean kernel;
        private long seenAtIdle = -1;

        /**
         * @param in            client-to-origin bytes
         * @param out           origin-to-client bytes
         * @param kernelStarted run each time a direction moves to {@code splice(2)} (a metric)
         */
        public Link(AtomicLong in, AtomicLong out, Runnable kernelStarted) {
            this.in = in;
            this.out = out;
            this.kernelStarted = kernelStarted;
        }
    }

    private final Channel peer;
    private final AtomicLong counter;
    private final LongConsumer metric;
    private final Runnable onClose;
    private final boolean halfClose;
    /** Shared with the other direction of a raw tunnel; {@code null} where the kernel path never applies. */
    private final Link link;
    /** Closes this side when a write to the peer fails; one instance, not one per write. */
    private ChannelFutureListener closeOnWriteFailure;
    /** Bytes this direction copied through the JVM. */
    private long copied;
    /** This direction moves by {@code splice(2)}; {@link #reads} counts it. */
    private boolean kernel;
    private ReadCounter reads;
    /** {@link #reads} already added to the counters. */
    private long readsSeen;
    /** Kernel path: the FIN arrived; passed on once a wake-up moves nothing with the pipe empty. */
    private boolean finPending;
    /** Kernel path: reading is paused until the peer has flushed the splice writes queued on it. */
    private boolean awaitingDrain;

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
        this(peer, counter, metric, onClose, halfClose, null);
    }

    /** One direction of a raw TCP tunnel (half-close passed on) that may move to {@code splice(2)}. */
    public Splice(Channel peer, AtomicLong counter, LongConsumer metric, Runnable onClose, Link link) {
        this(peer, counter, metric, onClose, true, link);
    }

    private Splice(Channel peer, AtomicLong counter, LongConsumer metric, Runnable onClose, boolean halfClose,
                   Link link) {
        this.peer = peer;
        this.counter = counter;
        this.metric = metric;
        this.onClose = onClose;
        this.halfClose = halfClose;
        this.link = link;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        Channel ch = ctx.channel();
        ch.config().setWriteBufferWaterMark(WATER_MARK);
        if (!(ch.config().getRecvByteBufAllocator() instanceof ReadCounter)) { // keep a counter set before the first read
            ch.config().setRecvByteBufAllocator(new ReadCounter());
        }
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
        if (link != null && !kernel) {
            copied += n;
            if (copied >= KERNEL_AFTER) {
                toKernel(ctx.channel());
            }
        }
    }

    /** Hands this direction to {@code splice(2)} when both channels allow it; stays on the copy path otherwise. */
    @SuppressWarnings("deprecation") // spliceTo: see the class comment for why its gaps are covered here
    private void toKernel(Channel self) {
        if (!(self instanceof AbstractEpollStreamChannel from) || !(peer instanceof AbstractEpollStreamChannel to)
                || from.eventLoop() != to.eventLoop()
                || !(self.config().getRecvByteBufAllocator() instanceof ReadCounter counted)) {
            copied = Long.MIN_VALUE; // not eligible: never ask again
            return;
        }
        kernel = true;
        link.kernel = true;
        reads = counted;
        readsSeen = counted.total(); // INVARIANT: every byte counted so far was delivered to channelRead and counted there
        link.kernelStarted.run();
        from.spliceTo(to, Integer.MAX_VALUE).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                self.close();
            }
        });
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (kernel) {
            long total = reads.total();
            long moved = total - readsSeen;
            readsSeen = total;
            if (moved > 0) {
                counter.addAndGet(moved);
                metric.accept(moved);
            } else {
                movedNothing(ctx.channel());
            }
        }
        peer.flush(); // INVARIANT: every buffer written in channelRead is flushed by the end of its read loop
    }

    /** Kernel path: a wake-up whose splice moved nothing. Either the pipe is full or, after a FIN, the input is done. */
    private void movedNothing(Channel self) {
        ChannelOutboundBuffer queued = peer.unsafe().outboundBuffer();
        if (queued != null && !queued.isEmpty()) {
            self.config().setAutoRead(false);
            if (!awaitingDrain) {
                awaitingDrain = true;
                // INVARIANT: completes after every splice write queued before it, i.e. once the pipe is empty
                peer.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((ChannelFutureListener) f -> {
                    awaitingDrain = false;
                    if (f.isSuccess()) {
                        self.config().setAutoRead(true);
                    } else {
                        self.close();
                    }
                });
            }
        } else if (finPending) {
            // the pipe is empty and the splice after the FIN moved nothing: every byte before it has reached the peer
            finPending = false;
            self.config().setAutoRead(false); // a shut-down input stays readable: stop the wake-ups
            inputEnded(self);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        // this channel is the peer's destination: let the peer read again once this one has room (a
        // kernel-spliced peer paces itself: Netty resumes it when a splice write completes)
        Splice other = peer.pipeline().get(Splice.class);
        if (ctx.channel().isWritable() && other != null && !other.kernel) {
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
            if (link != null && link.kernel) {
                // spliced bytes bypass the idle handler: busy if any moved since the last idle event
                long moved = link.in.get() + link.out.get();
                if (moved != link.seenAtIdle) {
                    link.seenAtIdle = moved;
                    return;
                }
            }
            ctx.close();
        } else if (evt instanceof ChannelInputShutdownEvent) {
            if (kernel) {
                finPending = true; // this wake-up's channelReadComplete decides whether the input is done
            } else {
                inputEnded(ctx.channel());
            }
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
