package dev.stockade.api.sandbox.ingress;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.timeout.ReadTimeoutHandler;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The sandbox's side of an upgraded ingress connection: connects to the exposed port, sends the handshake and reads
 * the sandbox's answer. On {@code 101} the HTTP codec goes and the connection becomes a {@link SocketRelay.Pipe} to
 * the client; any other answer goes back to the client as it is, and the connection ends.
 */
final class SandboxSocket implements AutoCloseable {
    /** What became of the handshake at the sandbox; called on the sandbox connection's event loop. */
    interface Answer {
        /** The sandbox switched protocols: the client side switches too; returns the client's channel. */
        Channel switched(FullHttpResponse response, Channel upstream);

        void refused(FullHttpResponse response);

        void unreachable();
    }

    private static final int HANDSHAKE_TIMEOUT_S = 30;
    private static final int MAX_ANSWER = 64 * 1024;
    private final EventLoopGroup loop = new NioEventLoopGroup(1);

    void open(InetSocketAddress address, String uri, List<Map.Entry<String, String>> headers, Answer answer) {
        FullHttpRequest handshake = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, uri);
        headers.forEach(h -> handshake.headers().add(h.getKey(), h.getValue()));
        handshake.headers().set(HttpHeaderNames.HOST, address.getAddress().getHostAddress() + ":" + address.getPort())
                .set(HttpHeaderNames.CONNECTION, "Upgrade").set(HttpHeaderNames.UPGRADE, "websocket")
                .set(HttpHeaderNames.CONTENT_LENGTH, 0);
        new Bootstrap().group(loop).channel(NioSocketChannel.class).option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("timeout", new ReadTimeoutHandler(HANDSHAKE_TIMEOUT_S, TimeUnit.SECONDS))
                                .addLast("codec", new HttpClientCodec())
                                .addLast("aggregate", new HttpObjectAggregator(MAX_ANSWER))
                                .addLast("handshake", new Handshake(answer));
                    }
                })
                .connect(address).addListener((ChannelFutureListener) f -> {
                    if (f.isSuccess()) {
                        f.channel().writeAndFlush(handshake);
                    } else {
                        handshake.release();
                        answer.unreachable();
                    }
                });
    }

    @Override
    public void close() {
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }

    /** Reads the sandbox's answer to the handshake, then gets out of the way. */
    private static final class Handshake extends SimpleChannelInboundHandler<FullHttpResponse> {
        private final Answer answer;
        private boolean answered;

        Handshake(Answer answer) {
            super(false);
            this.answer = answer;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
            answered = true;
            if (!response.status().equals(HttpResponseStatus.SWITCHING_PROTOCOLS)) {
                response.headers().set(HttpHeaderNames.CONNECTION, "close");
                answer.refused(response);
                ctx.close();
                return;
            }
            // the client side switches in a task on its loop; bytes relayed from here go there later, behind the 101
            Channel client = answer.switched(response, ctx.channel());
            var pipeline = ctx.pipeline();
            pipeline.remove("timeout");
            pipeline.addLast(SocketRelay.NAME, new SocketRelay.Pipe(client));
            pipeline.remove("aggregate");
            pipeline.remove(this);
            pipeline.remove("codec"); // bytes the sandbox sent behind its 101 go on to the Pipe
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!answered) {
                answered = true;
                answer.unreachable();
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
