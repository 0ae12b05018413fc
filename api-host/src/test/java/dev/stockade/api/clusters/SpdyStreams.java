package dev.stockade.api.clusters;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.spdy.DefaultSpdyDataFrame;
import io.netty.handler.codec.spdy.DefaultSpdyPingFrame;
import io.netty.handler.codec.spdy.DefaultSpdyRstStreamFrame;
import io.netty.handler.codec.spdy.DefaultSpdySynReplyFrame;
import io.netty.handler.codec.spdy.SpdyDataFrame;
import io.netty.handler.codec.spdy.SpdyGoAwayFrame;
import io.netty.handler.codec.spdy.SpdyHeaders;
import io.netty.handler.codec.spdy.SpdyPingFrame;
import io.netty.handler.codec.spdy.SpdyRstStreamFrame;
import io.netty.handler.codec.spdy.SpdyStreamStatus;
import io.netty.handler.codec.spdy.SpdySynReplyFrame;
import io.netty.handler.codec.spdy.SpdySynStreamFrame;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The kubelet's side of one SPDY/3.1 connection after the upgrade, as the kubelet's httpstream package serves it: each
 * stream the client opens ({@code SYN_STREAM}, its headers lower-case on the wire) is answered with a
 * {@code SYN_REPLY} or, when its headers are unusable, reset; the client's pings are echoed; a {@code GOAWAY} ends the
 * connection. No flow control is applied and no {@code WINDOW_UPDATE} sent: kubectl 1.20 sends only {@code SYN_STREAM}
 * and data frames. Subclasses give the streams their meaning (exec and attach, port-forward). Frames arrive on the
 * connection's event loop; {@link #send} and {@link #finish} may be called from any thread.
 */
abstract class SpdyStreams extends ChannelInboundHandlerAdapter {
    /** The header naming a stream's part: {@code error}, {@code stdin}, ... {@code data} (lower case on the wire). */
    static final String STREAM_TYPE = "streamtype";

    private volatile Channel channel;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof SpdySynStreamFrame syn) {
                Optional<String> refusal = refusal(syn.headers());
                if (refusal.isPresent()) {
                    ctx.writeAndFlush(new DefaultSpdyRstStreamFrame(syn.streamId(), SpdyStreamStatus.REFUSED_STREAM));
                    return;
                }
                ctx.writeAndFlush(reply(syn));
                opened(syn.streamId(), syn.headers());
                if (syn.isLast()) {
                    remoteFinished(syn.streamId());
                }
            } else if (msg instanceof SpdyDataFrame data) {
                received(data.streamId(), ByteBufUtil.getBytes(data.content()));
                if (data.isLast()) {
                    remoteFinished(data.streamId());
                }
            } else if (msg instanceof SpdyRstStreamFrame reset) {
                reset(reset.streamId());
            } else if (msg instanceof SpdyPingFrame ping && (ping.id() & 1) == 1) {
                ctx.writeAndFlush(new DefaultSpdyPingFrame(ping.id())); // a client's ping (odd id) comes back
            } else if (msg instanceof SpdyGoAwayFrame) {
                ctx.close();
            }
            // SETTINGS, WINDOW_UPDATE and HEADERS change nothing here
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /**
     * The answer to a new stream. The kubelet's carries no headers, but Netty's encoder writes an empty header set as
     * no header block at all, which Go's SPDY framer cannot read (it expects at least the zero count), so the stream's
     * type is echoed.
     */
    private static SpdySynReplyFrame reply(SpdySynStreamFrame syn) {
        SpdySynReplyFrame reply = new DefaultSpdySynReplyFrame(syn.streamId());
        reply.headers().set(STREAM_TYPE, syn.headers().get(STREAM_TYPE));
        return reply;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // a frame the codec cannot read ends the connection, as spdystream's reader does
    }

    /** Why a new stream with these headers is reset instead of answered; empty when it is accepted. */
    abstract Optional<String> refusal(SpdyHeaders headers);

    /** A stream the client opened was answered. */
    abstract void opened(int streamId, SpdyHeaders headers);

    /** Bytes the client sent on a stream. */
    abstract void received(int streamId, byte[] bytes);

    /** The client will send no more on this stream (its {@code FLAG_FIN}). */
    abstract void remoteFinished(int streamId);

    /** The client reset a stream. */
    abstract void reset(int streamId);

    /** The connection is gone. */
    abstract void closed();

    /** Sends bytes on a stream, waiting until they are written (the writer's back-pressure). */
    void send(int streamId, byte[] bytes) {
        write(new DefaultSpdyDataFrame(streamId, Unpooled.wrappedBuffer(bytes)));
    }

    void send(int streamId, String text) {
        send(streamId, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Ends this side of a stream: an empty data frame with {@code FLAG_FIN}. */
    void finish(int streamId) {
        DefaultSpdyDataFrame last = new DefaultSpdyDataFrame(streamId);
        last.setLast(true);
        write(last);
    }

    /** Closes the connection once what was written before has gone out. */
    void end() {
        Channel c = channel;
        c.eventLoop().execute(() -> c.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE));
    }

    private void write(Object frame) {
        Channel c = channel;
        if (!c.isActive()) {
            ReferenceCountUtil.release(frame);
            return;
        }
        var written = c.writeAndFlush(frame);
        if (!c.eventLoop().inEventLoop()) {
            written.awaitUninterruptibly();
        }
    }
}
