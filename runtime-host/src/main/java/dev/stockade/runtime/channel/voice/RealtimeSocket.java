package dev.stockade.runtime.channel.voice;

import dev.stockade.runtime.observe.Log;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshakeException;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.proxy.HttpProxyHandler;
import io.netty.handler.proxy.ProxyConnectException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.resolver.NoopAddressResolverGroup;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import javax.net.ssl.SSLException;

/**
 * The realtime session's WebSocket, on Netty: TLS for {@code wss} with the host name verified, and, with an explicit
 * proxy, a {@code CONNECT} tunnel that carries {@code Proxy-Authorization: Basic} when the proxy URL names a user
 * (Netty's {@link HttpProxyHandler}). Text messages are handed on whole, in order, on one thread.
 */
final class RealtimeSocket implements AutoCloseable {
    /** The largest event accepted: an audio delta of a few seconds is well under it. */
    private static final int MAX_MESSAGE = 16 * 1024 * 1024;

    private final EventLoopGroup group;
    private final Channel channel;
    private final Inbound inbound;

    private RealtimeSocket(EventLoopGroup group, Channel channel, Inbound inbound) {
        this.group = group;
        this.channel = channel;
        this.inbound = inbound;
    }

    /** Connects, tunnelling through {@code proxy} when given, and completes the handshake with the bearer key. */
    static RealtimeSocket open(URI target, String bearer, ProxyRoute proxy, Duration timeout) throws VoiceRefused {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Inbound inbound = new Inbound();
        try {
            String host = target.getHost();
            int port = target.getPort() > 0 ? target.getPort() : "wss".equalsIgnoreCase(target.getScheme()) ? 443 : 80;
            ChannelFuture connected = bootstrap(group, target, bearer, proxy, timeout, inbound)
                    .connect(proxy != null ? InetSocketAddress.createUnresolved(host, port)
                            : new InetSocketAddress(host, port));
            // a refused connection or tunnel never reaches the pipeline's handlers
            connected.addListener(f -> {
                if (!f.isSuccess()) {
                    inbound.opened.completeExceptionally(f.cause());
                }
            });
            inbound.opened.get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
            return new RealtimeSocket(group, connected.channel(), inbound);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new VoiceRefused(why(e, proxy));
        }
    }

    /** The pipeline: proxy tunnel, TLS (host name verified), HTTP, the WebSocket handshake and whole messages. */
    private static Bootstrap bootstrap(EventLoopGroup group, URI target, String bearer, ProxyRoute proxy,
            Duration timeout, Inbound inbound) throws SSLException {
        boolean tls = "wss".equalsIgnoreCase(target.getScheme());
        int port = target.getPort() > 0 ? target.getPort() : tls ? 443 : 80;
        SslContext ssl = tls ? SslContextBuilder.forClient().endpointIdentificationAlgorithm("HTTPS").build() : null;
        WebSocketClientProtocolConfig ws = WebSocketClientProtocolConfig.newBuilder().webSocketUri(target)
                .customHeaders(new DefaultHttpHeaders().set("Authorization", "Bearer " + bearer))
                .maxFramePayloadLength(MAX_MESSAGE).handshakeTimeoutMillis(timeout.toMillis()).build();
        Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeout.toMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (proxy != null) {
                            ch.pipeline().addLast(proxyHandler(proxy, timeout));
                        }
                        if (ssl != null) {
                            ch.pipeline().addLast(ssl.newHandler(ch.alloc(), target.getHost(), port));
                        }
                        ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(64 * 1024),
                                new WebSocketClientProtocolHandler(ws), new WebSocketFrameAggregator(MAX_MESSAGE),
                                inbound);
                    }
                });
        // through a proxy, the proxy resolves the target; the runtime may not even be able to
        return proxy != null ? b.resolver(NoopAddressResolverGroup.INSTANCE) : b;
    }

    private static HttpProxyHandler proxyHandler(ProxyRoute proxy, Duration timeout) {
        HttpProxyHandler h = proxy.authenticatesAs().isPresent()
                ? new HttpProxyHandler(proxy.address(), proxy.user(), proxy.password())
                : new HttpProxyHandler(proxy.address());
        h.setConnectTimeoutMillis(timeout.toMillis());
        return h;
    }

    /** Why the connection failed, in words that name no key and no proxy password. */
    private static String why(Exception e, ProxyRoute proxy) {
        Throwable c = e;
        while ((c instanceof ExecutionException || c instanceof CompletionException) && c.getCause() != null) {
            c = c.getCause();
        }
        if (c instanceof WebSocketClientHandshakeException h && h.response() != null) {
            return "the realtime endpoint answered the handshake with " + h.response().status().code();
        }
        if (c instanceof ProxyConnectException && proxy != null) {
            boolean auth = String.valueOf(c.getMessage()).contains("status: 407");
            return "the proxy " + proxy.host() + ":" + proxy.port() + " refused the tunnel" + (auth
                    ? " (407: " + (proxy.user() == null ? "it needs a user and password in HTTPS_PROXY"
                            : "it rejected the user `" + proxy.user() + "` or its password") + ")" : "");
        }
        if (c instanceof ConnectException) {
            // after the proxy's case: Netty's ProxyConnectException is a ConnectException too
            return "the connection was refused";
        }
        return c.getClass().getSimpleName();
    }

    /** Hands every text message, in order, to {@code sink}; messages that came before are handed first. */
    void listen(Consumer<String> sink) {
        channel.eventLoop().execute(() -> inbound.attach(sink));
    }

    /** Sends one text message; messages leave in the order sent. */
    void send(String text) {
        channel.writeAndFlush(new TextWebSocketFrame(text));
    }

    @Override
    public void close() {
        try {
            if (channel.isActive()) {
                channel.writeAndFlush(new CloseWebSocketFrame(1000, "bye")).await(2, TimeUnit.SECONDS);
            }
            channel.close().await(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /** Completes the handshake future and passes text messages on, holding those that arrive before a listener. */
    private static final class Inbound extends SimpleChannelInboundHandler<TextWebSocketFrame> {
        final CompletableFuture<Void> opened = new CompletableFuture<>();
        private final List<String> early = new ArrayList<>();
        private Consumer<String> sink;

        void attach(Consumer<String> s) {
            early.forEach(s);
            early.clear();
            sink = s;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
            if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
                opened.complete(null);
            } else if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
                opened.completeExceptionally(new TimeoutException("handshake"));
            }
            super.userEventTriggered(ctx, evt);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, TextWebSocketFrame frame) {
            String text = frame.text();
            if (sink == null) {
                early.add(text);
            } else {
                sink.accept(text);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            opened.completeExceptionally(new EOFException("closed before the handshake"));
            Log.info("voice.session_closed");
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!opened.completeExceptionally(cause)) {
                Log.warn("voice.session_failed", "error", cause.getClass().getSimpleName());
            }
            ctx.close();
        }
    }
}
