package dev.stockade.api.kernel.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * One half of an upgraded connection once both sides carry raw bytes (ingress WebSockets, the cluster proxy's
 * streams): relays every byte its channel reads to the {@link #peer}, with back-pressure (this side stops reading
 * while the peer cannot take more, and the peer's pipe turns reading back on once it drained). How the pair ends is
 * the feature's own: a subclass adds it.
 */
public abstract class BytePipe extends ChannelInboundHandlerAdapter {
    /** The other side of the connection. */
    protected abstract Channel peer();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel peer = peer();
        if (!(msg instanceof ByteBuf bytes)) {
            ReferenceCountUtil.release(msg); // nothing but bytes flows once the codecs are gone
            return;
        }
        peer.writeAndFlush(bytes).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                ctx.close();
            }
        });
        if (!peer.isWritable()) {
            ctx.channel().config().setAutoRead(false);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            peer().config().setAutoRead(true);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
