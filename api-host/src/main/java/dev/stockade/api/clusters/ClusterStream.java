package dev.stockade.api.clusters;

import dev.stockade.api.kernel.net.BytePipe;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One upgraded exec, attach or port-forward stream once the API server answered {@code 101}: the sandbox's connection
 * and the cluster's carry raw bytes to each other (frames, masks and close handshakes pass unchanged, end to end),
 * each direction read through a {@link FrameLimit}, with back-pressure, and with a close on one side closing the other.
 * It ends, exactly once and with a reason, when either side leaves, when nothing moves for the idle timeout, when a
 * frame is too large, or when a halt of the organization closes it ({@link #close()}); a WebSocket client at a frame
 * boundary then receives a close frame saying why.
 */
final class ClusterStream implements Closeable {
    /** How the stream ended, for its audit entry. */
    record Ended(String reason, long bytesToCluster, long bytesFromCluster, Duration lasted) {
    }

    /** Why a stream ends, with the WebSocket close code its client is sent (RFC 6455 7.4.1). */
    enum Reason {
        CLOSED(1000), IDLE(1001), HALTED(1008), FRAME_TOO_LARGE(1009);

        final int code;

        Reason(int code) {
            this.code = code;
        }
    }

    static final String PIPE = "stockade-cluster-stream";
    private final Channel upstream;
    private final StreamKind.Protocol protocol;
    private final FrameLimit toCluster;
    private final FrameLimit fromCluster;
    private final long startedNanos = System.nanoTime();
    private final AtomicReference<Reason> reason = new AtomicReference<>();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final Consumer<Ended> onEnd;
    private final Channel client;

    ClusterStream(Channel client, Channel upstream, StreamKind.Protocol protocol, long maxFrame, Consumer<Ended> onEnd) {
        this.client = client;
        this.upstream = upstream;
        this.protocol = protocol;
        this.onEnd = onEnd;
        this.toCluster = new FrameLimit(protocol, maxFrame, n -> end(Reason.FRAME_TOO_LARGE));
        this.fromCluster = new FrameLimit(protocol, maxFrame, n -> end(Reason.FRAME_TOO_LARGE));
    }

    /** Turns the cluster's connection into its half of the stream; runs on its event loop, in the 101's handler. */
    void switchClusterSide(List<String> httpHandlers) {
        ChannelPipeline pipeline = upstream.pipeline();
        pipeline.addLast("frames", fromCluster).addLast(PIPE, new Pipe(this, true));
        upstream.closeFuture().addListener(f -> finish());
        for (String name : httpHandlers) {
            pipeline.remove(name); // the codec goes last: bytes it still held after the 101 go on to the pipe
        }
    }

    /** Turns the sandbox's connection into its half of the stream; runs on its event loop. */
    void switchClientSide(ChannelHandlerContext behindCodec, FullHttpResponse switching, Duration idle) {
        takeOver(behindCodec, switching, new IdleStateHandler(0, 0, idle.toMillis(), TimeUnit.MILLISECONDS),
                toCluster, new Pipe(this, false));
    }

    /** Turns the relay's stream connection into the cluster's half of the stream; runs on its event loop. */
    void switchRelaySide(ChannelHandlerContext behindCodec, FullHttpResponse switching) {
        takeOver(behindCodec, switching, fromCluster, new Pipe(this, true));
    }

    /**
     * Writes the {@code 101} through the server's HTTP codec, then removes the codec and every framework handler
     * behind it, so that the bytes which follow are relayed as they are. When the connection left meanwhile, the
     * whole stream ends.
     */
    private void takeOver(ChannelHandlerContext behindCodec, FullHttpResponse switching, ChannelHandler... handlers) {
        Channel channel = behindCodec.channel();
        ChannelPipeline pipeline = channel.pipeline();
        var codec = pipeline.context(HttpServerCodec.class);
        channel.closeFuture().addListener(f -> finish());
        if (codec == null || behindCodec.isRemoved() || !channel.isActive()) {
            ReferenceCountUtil.release(switching);
            client.close();
            upstream.close();
            return;
        }
        behindCodec.writeAndFlush(switching);
        List<String> names = pipeline.names();
        for (String name : names.subList(names.indexOf(codec.name()) + 1, names.size())) {
            if (pipeline.get(name) != null && !name.startsWith("DefaultChannelPipeline$TailContext")) {
                pipeline.remove(name);
            }
        }
        for (int i = 0; i < handlers.length; i++) {
            pipeline.addLast(PIPE + "-" + i, handlers[i]);
        }
        pipeline.remove(codec.name()); // bytes it still held go on to the stream
        channel.config().setAutoRead(true);
    }

    /** A halt of the organization: the stream ends now. */
    @Override
    public void close() {
        end(Reason.HALTED);
    }

    /**
     * Ends the stream for {@code why}. On the cluster connection's loop, where the cluster-to-sandbox bytes are read,
     * so that a WebSocket close frame is written only between two whole frames.
     */
    void end(Reason why) {
        if (!reason.compareAndSet(null, why)) {
            return;
        }
        upstream.eventLoop().execute(() -> {
            Channel c = client;
            if (c.isActive() && protocol == StreamKind.Protocol.WEBSOCKET && fromCluster.atBoundary()) {
                c.writeAndFlush(closeFrame(why)).addListener(ChannelFutureListener.CLOSE);
            } else {
                c.close();
            }
            upstream.close();
        });
    }

    private void finish() {
        reason.compareAndSet(null, Reason.CLOSED);
        Channel c = client;
        if (c.isActive()) {
            c.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
        if (upstream.isActive()) {
            upstream.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
        if (!c.isOpen() && !upstream.isOpen() && ended.compareAndSet(false, true)) {
            onEnd.accept(new Ended(reason.get().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                    toCluster.bytes(), fromCluster.bytes(), Duration.ofNanos(System.nanoTime() - startedNanos)));
        }
    }

    /** An unmasked close frame (a server's), its payload the code and the reason's name. */
    static ByteBuf closeFrame(Reason why) {
        byte[] text = why.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ').getBytes(StandardCharsets.UTF_8);
        ByteBuf frame = Unpooled.buffer(4 + text.length);
        frame.writeByte(0x88).writeByte(2 + text.length).writeShort(why.code).writeBytes(text);
        return frame;
    }

    /** Relays every byte a channel reads to the other side of the stream; an idle stream ends. */
    private static final class Pipe extends BytePipe {
        private final ClusterStream stream;
        private final boolean fromCluster;

        Pipe(ClusterStream stream, boolean fromCluster) {
            this.stream = stream;
            this.fromCluster = fromCluster;
        }

        @Override
        protected Channel peer() {
            return fromCluster ? stream.client : stream.upstream;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent) {
                stream.end(Reason.IDLE);
            }
            ReferenceCountUtil.release(evt);
        }
    }

}
