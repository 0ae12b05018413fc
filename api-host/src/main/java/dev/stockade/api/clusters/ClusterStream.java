package dev.stockade.api.clusters;

import dev.stockade.api.kernel.net.BytePipe;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

    /**
     * Why a stream ends, with the WebSocket close code its client is sent (RFC 6455 7.4.1), and the Kubernetes status
     * (reason, HTTP code, message) a SPDY remote-command client is sent on its error stream.
     */
    enum Reason {
        CLOSED(1000, "", 0, ""),
        IDLE(1001, "Timeout", 504, "the stream was idle for longer than the platform allows"),
        HALTED(1008, "Forbidden", 403, "the organization is halted"),
        FRAME_TOO_LARGE(1009, "RequestEntityTooLarge", 413, "a frame was larger than the platform allows");

        final int code;
        final String statusReason;
        final int statusCode;
        final String message;

        Reason(int code, String statusReason, int statusCode, String message) {
            this.code = code;
            this.statusReason = statusReason;
            this.statusCode = statusCode;
            this.message = message;
        }
    }

    static final String PIPE = "stockade-cluster-stream";
    private final Channel upstream;
    private final StreamKind.Protocol protocol;
    private final StreamKind.Verb verb;
    private final FrameLimit toCluster;
    private final FrameLimit fromCluster;
    private final long startedNanos = System.nanoTime();
    private final AtomicReference<Reason> reason = new AtomicReference<>();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final Consumer<Ended> onEnd;
    private final Channel client;

    ClusterStream(Channel client, Channel upstream, StreamKind kind, long maxFrame, Consumer<Ended> onEnd) {
        this.client = client;
        this.upstream = upstream;
        this.protocol = kind.protocol();
        this.verb = kind.verb();
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
     * so that a last frame saying why is written only between two whole frames: a WebSocket close frame, or for a
     * SPDY exec or attach a status on the client's error stream (kubectl then reports the reason and fails).
     */
    void end(Reason why) {
        if (!reason.compareAndSet(null, why)) {
            return;
        }
        upstream.eventLoop().execute(() -> {
            Channel c = client;
            ByteBuf last = c.isActive() && fromCluster.atBoundary() ? lastFrame(why) : null;
            if (last != null) {
                c.writeAndFlush(last).addListener(ChannelFutureListener.CLOSE);
            } else {
                c.close();
            }
            upstream.close();
        });
    }

    /** The frame that tells the client why the stream ends, or null when its protocol has none to send. */
    private ByteBuf lastFrame(Reason why) {
        if (protocol == StreamKind.Protocol.WEBSOCKET) {
            return closeFrame(why);
        }
        long errorStream = toCluster.firstStream();
        if (why == Reason.CLOSED || verb == StreamKind.Verb.PORTFORWARD || errorStream < 0) {
            return null; // a port-forward's error streams carry text per connection, not a status
        }
        return spdyStatus(errorStream, why);
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

    /**
     * A SPDY data frame ending stream {@code id} (flag FIN) whose payload is a Kubernetes {@code Status} of failure:
     * what a kubelet writes on a remote command's error stream when the command cannot go on.
     */
    static ByteBuf spdyStatus(long id, Reason why) {
        ObjectNode status = JsonNodeFactory.instance.objectNode();
        status.put("kind", "Status").put("apiVersion", "v1").putObject("metadata");
        status.put("status", "Failure").put("message", why.message).put("reason", why.statusReason)
                .put("code", why.statusCode);
        byte[] json = status.toString().getBytes(StandardCharsets.UTF_8);
        ByteBuf frame = Unpooled.buffer(8 + json.length);
        frame.writeInt((int) (id & 0x7fffffffL)).writeByte(0x01).writeMedium(json.length).writeBytes(json);
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
