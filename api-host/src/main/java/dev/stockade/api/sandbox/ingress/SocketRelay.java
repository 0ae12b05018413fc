package dev.stockade.api.sandbox.ingress;

import dev.stockade.api.kernel.net.BytePipe;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.ReferenceCountUtil;
import java.util.List;

/**
 * The two halves of an upgraded ingress connection: once the sandbox answered the handshake with {@code 101}, both
 * connections carry raw bytes (WebSocket frames, masks, extensions and close handshakes pass unchanged, end to end),
 * with back-pressure (a side stops reading while the other cannot take more) and a close on one side closing the
 * other.
 */
final class SocketRelay {
    static final String NAME = "stockade-ingress-relay";

    private SocketRelay() {
    }

    /** Relays every byte a channel reads to {@code peer}; a close on one side closes the other. */
    static final class Pipe extends BytePipe {
        private final Channel peer;

        Pipe(Channel peer) {
            this.peer = peer;
        }

        @Override
        protected Channel peer() {
            return peer;
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closeAfterFlush(peer);
        }
    }

    /**
     * Turns the platform's side of the connection into a {@link Pipe} to {@code upstream}: writes the sandbox's
     * {@code 101} through the HTTP codec, then removes the codec and every framework handler behind it, so that the
     * bytes which follow are relayed as they are. Runs on the client channel's event loop.
     */
    static void switchClientSide(ChannelHandlerContext behindCodec, FullHttpResponse switching, Channel upstream) {
        Channel client = behindCodec.channel();
        ChannelPipeline pipeline = client.pipeline();
        var codec = pipeline.context(HttpServerCodec.class);
        if (codec == null || behindCodec.isRemoved() || !client.isActive()) { // the client left during the handshake
            ReferenceCountUtil.release(switching);
            client.close();
            upstream.close();
            return;
        }
        behindCodec.writeAndFlush(switching); // through the codec's encoder, which sits just before this handler
        List<String> names = pipeline.names();
        for (String name : names.subList(names.indexOf(codec.name()) + 1, names.size())) {
            if (pipeline.get(name) != null && !name.startsWith("DefaultChannelPipeline$TailContext")) {
                pipeline.remove(name);
            }
        }
        pipeline.addLast(NAME, new Pipe(upstream));
        pipeline.remove(codec.name()); // bytes it still held go on to the Pipe
        client.config().setAutoRead(true);
    }

    /** An answer to the client before any upgrade, then the end of the connection. */
    static FullHttpResponse closing(HttpResponseStatus status, String contentType, byte[] body) {
        FullHttpResponse r = new DefaultFullHttpResponse(io.netty.handler.codec.http.HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType).set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        return r;
    }

    static void closeAfterFlush(Channel channel) {
        if (channel.isActive()) {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
