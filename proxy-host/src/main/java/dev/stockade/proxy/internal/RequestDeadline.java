package dev.stockade.proxy.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Bounds every request of a client connection, the first and every kept-alive one after it, on the
 * forward port and inside intercepted tunnels: a request's head must be complete within the head bound
 * of its first byte (the first request's: of the connection or tunnel opening), and its body within the
 * body bound of its head. These are deadlines, not idle timers: bytes trickled one at a time do not
 * extend them. Between requests a connection is idle and only the idle timeout applies.
 *
 * <p>It sits in front of the HTTP decoder, where it sees bytes arrive; its {@link #marker()} sits behind
 * the decoder, where it sees a head and a request's end. Both run on the channel's event loop.
 */
public final class RequestDeadline extends ChannelInboundHandlerAdapter {

    /** What ran out. */
    public enum Phase { HEAD, BODY }

    /** Called once on the event loop when a deadline passes; it audits and closes the connection. */
    public interface Expiry {
        void expired(ChannelHandlerContext ctx, Phase phase);
    }

    private final long headMillis;
    private final long bodyMillis;
    private final Expiry expiry;
    private ScheduledFuture<?> timer;
    /** Null between requests. */
    private Phase phase;
    private ChannelHandlerContext ctx;

    public RequestDeadline(Duration head, Duration body, Expiry expiry) {
        this.headMillis = head.toMillis();
        this.bodyMillis = body.toMillis();
        this.expiry = expiry;
    }

    /** The handler that goes behind the HTTP decoder and reports heads and request ends. */
    public ChannelInboundHandlerAdapter marker() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext c, Object msg) {
                if (msg instanceof HttpRequest) {
                    arm(Phase.BODY, bodyMillis);
                }
                if (msg instanceof LastHttpContent) {
                    cancel();
                    phase = null;
                }
                c.fireChannelRead(msg);
            }
        };
    }

    @Override
    public void handlerAdded(ChannelHandlerContext c) {
        ctx = c;
        arm(Phase.HEAD, headMillis); // the first request is due from the moment the connection can send it
    }

    @Override
    public void channelRead(ChannelHandlerContext c, Object msg) {
        if (phase == null && msg instanceof ByteBuf b && b.isReadable()) {
            arm(Phase.HEAD, headMillis);
        }
        c.fireChannelRead(msg);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext c) {
        cancel();
    }

    @Override
    public void channelInactive(ChannelHandlerContext c) {
        cancel();
        c.fireChannelInactive();
    }

    private void arm(Phase next, long millis) {
        cancel();
        phase = next;
        timer = ctx.executor().schedule(() -> {
            if (phase == next && ctx.channel().isActive()) {
                expiry.expired(ctx, next);
            }
        }, millis, TimeUnit.MILLISECONDS);
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
