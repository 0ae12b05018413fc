package dev.stockade.api.kernel.web;

import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpServerCodec;
import java.util.function.Supplier;

/**
 * Puts one handler right after each connection's HTTP codec, where it sees requests before the framework routes them:
 * the 431 answer to an oversized header block, and the take-over of upgrade requests (ingress WebSockets, the cluster
 * proxy's streams). The codec is found by type: over HTTP/1.1 it has Micronaut's name, behind cleartext HTTP/2 (h2c)
 * Netty's own.
 */
public final class AfterHttpCodec implements NettyServerCustomizer {
    private final String name;
    private final Supplier<ChannelHandler> handler;
    private final Channel channel;

    private AfterHttpCodec(String name, Supplier<ChannelHandler> handler, Channel channel) {
        this.name = name;
        this.handler = handler;
        this.channel = channel;
    }

    /**
     * Registers {@code handler} under {@code name} on every connection; the supplier makes one handler per connection,
     * or returns null to leave that connection alone (a feature switched off).
     */
    public static void register(NettyServerCustomizer.Registry registry, String name,
                                Supplier<ChannelHandler> handler) {
        registry.register(new AfterHttpCodec(name, handler, null));
    }

    @Override
    public NettyServerCustomizer specializeForChannel(Channel channel, ChannelRole role) {
        return new AfterHttpCodec(name, handler, channel);
    }

    @Override
    public void onStreamPipelineBuilt() {
        ChannelHandlerContext codec = channel == null ? null : channel.pipeline().context(HttpServerCodec.class);
        if (codec != null && channel.pipeline().get(name) == null) {
            ChannelHandler h = handler.get();
            if (h != null) {
                channel.pipeline().addAfter(codec.name(), name, h);
            }
        }
    }
}
