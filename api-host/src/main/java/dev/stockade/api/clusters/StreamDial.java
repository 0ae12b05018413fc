package dev.stockade.api.clusters;

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
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.ReadTimeoutHandler;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * The cluster's side of an upgraded stream: connects to the address the dial guard checked (TLS verifying the API
 * server's certificate against the URL's host name, not the address), sends the handshake and reads the answer within
 * {@code clusters.response-timeout}. On {@code 101} the HTTP handlers go and the connection becomes the cluster's half
 * of a {@link ClusterStream}; any other answer (the API server's 401, 403 or 404 {@code Status}) goes back as it is.
 */
final class StreamDial implements AutoCloseable {
    /** What became of the handshake at the cluster; called on the cluster connection's event loop. */
    interface Answer {
        /** The API server switched protocols: the sandbox's side switches too; returns the stream they make. */
        ClusterStream switched(FullHttpResponse response, Channel upstream);

        /** The API server answered without switching (the answer is filtered, its connection closed). */
        void answered(FullHttpResponse response);

        void unreachable(String why);
    }

    /** Headers of the API server's answer that reach the sandbox besides the proxy's allowlist. */
    static final Set<String> ANSWER_HEADERS = Set.of("upgrade", "connection", "sec-websocket-accept",
            "sec-websocket-protocol", "x-stream-protocol-version", "content-length");
    private static final int MAX_ANSWER = 64 * 1024;

    private final ClusterSettings settings;
    private final EventLoopGroup loop = new NioEventLoopGroup(1);

    StreamDial(ClusterSettings settings) {
        this.settings = settings;
    }

    void open(InetSocketAddress address, URI base, SSLContext tls, FullHttpRequest handshake, Answer answer) {
        new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) settings.connectTimeout().toMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast("tls", handler(ch, tls, base, address.getPort()));
                        }
                        ch.pipeline().addLast("timeout", new ReadTimeoutHandler(
                                        settings.responseTimeout().toMillis(), TimeUnit.MILLISECONDS))
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
                        answer.unreachable("the cluster's API server did not accept a connection");
                    }
                });
    }

    private static SslHandler handler(SocketChannel ch, SSLContext tls, URI base, int port) {
        JdkSslContext context = new JdkSslContext(tls, true, null, IdentityCipherSuiteFilter.INSTANCE, null,
                ClientAuth.NONE, null, false);
        SslHandler handler = context.newHandler(ch.alloc(), base.getHost(), port);
        SSLEngine engine = handler.engine();
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the URL's host
        engine.setSSLParameters(parameters);
        return handler;
    }

    /** Only the allowlisted headers of an answer reach the sandbox (never {@code Set-Cookie}). */
    static void filter(HttpHeaders headers) {
        for (String name : Set.copyOf(headers.names())) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!ANSWER_HEADERS.contains(lower) && !ClusterProxy.RESPONSE_HEADERS.contains(lower)) {
                headers.remove(name);
            }
        }
    }

    @Override
    public void close() {
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }

    /** Reads the API server's answer to the handshake, then gets out of the way. */
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
            filter(response.headers());
            if (!response.status().equals(HttpResponseStatus.SWITCHING_PROTOCOLS)) {
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                        .set(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
                answer.answered(response);
                ctx.close();
                return;
            }
            ClusterStream stream = answer.switched(response, ctx.channel());
            ctx.pipeline().remove("timeout");
            stream.switchClusterSide(List.of("aggregate", "handshake", "codec"));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!answered) {
                answered = true;
                answer.unreachable("the cluster's API server closed the connection before it answered the handshake"
                        + " (TLS verification, or no answer within clusters.response-timeout)");
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
