package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ProvisionException;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.util.function.Supplier;

/**
 * How local sandboxes reach the platform's API: a byte relay listening on the bridge's address (a sandbox's only
 * route leads there) to the platform's own listener, which {@code stockade serve} binds to loopback by default.
 * Bytes only: TLS, HTTP/2 and WebSocket pass unchanged, and every request still meets the platform's own access
 * filter. Started on first use, on an ephemeral port.
 */
final class PlatformRelay implements AutoCloseable {
    private final String gateway;
    private final Supplier<InetSocketAddress> target;
    private EventLoopGroup loop;
    private Channel listener;

    PlatformRelay(String gateway, Supplier<InetSocketAddress> target) {
        this.gateway = gateway;
        this.target = target;
    }

    /** The relay's port on the gateway address, starting it if needed. */
    synchronized int port() throws ProvisionException {
        if (listener == null) {
            loop = new NioEventLoopGroup(1);
            try {
                listener = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
                        .childOption(ChannelOption.AUTO_READ, false)
                        .childHandler(new ChannelInitializer<SocketChannel>() {
                            @Override
                            protected void initChannel(SocketChannel ch) {
                                ch.pipeline().addLast(new Inbound(target.get()));
                            }
                        }).bind(gateway, 0).sync().channel();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProvisionException("starting the platform relay was interrupted");
            } catch (RuntimeException e) {
                loop.shutdownGracefully();
                loop = null;
                throw new ProvisionException("the platform relay cannot listen on " + gateway + ": " + e.getMessage());
            }
        }
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    @Override
    public synchronized void close() {
        if (listener != null) {
            listener.close();
            loop.shutdownGracefully();
            listener = null;
        }
    }

    /** One direction of the relay: what arrives is written to the peer, and more is read once that is written. */
    private static class Pipe extends ChannelInboundHandlerAdapter {
        protected Channel peer;

        Pipe(Channel peer) {
            this.peer = peer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            peer.writeAndFlush(msg).addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    ctx.channel().read();
                } else {
                    f.channel().close();
                }
            });
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closeOnFlush(peer);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            closeOnFlush(ctx.channel());
        }
    }

    /** A sandbox's connection: opens the platform side, then pipes each way. */
    private static final class Inbound extends Pipe {
        private final InetSocketAddress target;

        Inbound(InetSocketAddress target) {
            super(null);
            this.target = target;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            Channel in = ctx.channel();
            new Bootstrap().group(in.eventLoop()).channel(NioSocketChannel.class)
                    .option(ChannelOption.AUTO_READ, false)
                    .handler(new Pipe(in)).connect(target).addListener((ChannelFutureListener) f -> {
                        if (f.isSuccess()) {
                            peer = f.channel();
                            in.read();
                            peer.read();
                        } else {
                            in.close();
                        }
                    });
        }
    }

    private static void closeOnFlush(Channel ch) {
        if (ch != null && ch.isActive()) {
            ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
