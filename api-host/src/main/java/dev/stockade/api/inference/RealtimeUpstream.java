package dev.stockade.api.inference;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshakeException;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.EventExecutorGroup;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLParameters;

/**
 * One WebSocket to a realtime backend, dialed to an address the SSRF guard already accepted (the URL's host name
 * still goes in {@code Host} and, over TLS, in SNI and the certificate check, so the name is what gets verified and
 * nothing resolves it a second time). Frames arrive at the {@link Listener} in order, on one thread of the
 * listeners' group (never the event loop: the listener writes to the database).
 */
final class RealtimeUpstream {
    /** What the backend sends, in order. */
    interface Listener {
        void text(String frame);

        void binary(byte[] frame);

        /** The backend closed (or the connection broke: code 1006). */
        void closed(int code, String reason);
    }

    /** The handshake failed: {@code status} is the backend's HTTP status, 0 when it never answered. */
    static final class Refused extends Exception {
        final int status;

        Refused(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    private static final int HANDSHAKE_TIMEOUT_MS = 10_000;
    private final Channel channel;

    private RealtimeUpstream(Channel channel) {
        this.channel = channel;
    }

    /** Opens the socket; completes once the handshake succeeded, or exceptionally with {@link Refused}. */
    static CompletableFuture<RealtimeUpstream> open(EventLoopGroup loop, EventExecutorGroup listeners, SslContext tls,
                                                     URI uri, InetAddress address, Map<String, String> headers,
                                                     int maxFrame, Listener listener) {
        boolean secure = uri.getScheme().equals("wss");
        int port = uri.getPort() > 0 ? uri.getPort() : secure ? 443 : 80;
        HttpHeaders custom = new DefaultHttpHeaders();
        headers.forEach(custom::set);
        WebSocketClientProtocolConfig config = WebSocketClientProtocolConfig.newBuilder().webSocketUri(uri)
                .customHeaders(custom).maxFramePayloadLength(maxFrame).handleCloseFrames(false)
                .handshakeTimeoutMillis(HANDSHAKE_TIMEOUT_MS).build();
        CompletableFuture<RealtimeUpstream> opened = new CompletableFuture<>();
        Bootstrap bootstrap = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (secure) {
                            SslHandler ssl = tls.newHandler(ch.alloc(), uri.getHost(), port);
                            SSLParameters params = ssl.engine().getSSLParameters();
                            params.setEndpointIdentificationAlgorithm("HTTPS");
                            ssl.engine().setSSLParameters(params);
                            ch.pipeline().addLast(ssl);
                        }
                        ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(64 * 1024),
                                new WebSocketClientProtocolHandler(config), new WebSocketFrameAggregator(maxFrame));
                        // the listener meters (a database write per response): off the event loop, in frame order
                        ch.pipeline().addLast(listeners, new Frames(opened, listener));
                    }
                });
        bootstrap.connect(new InetSocketAddress(address, port)).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                opened.completeExceptionally(new Refused(0, "cannot connect: " + f.cause().getClass().getSimpleName()));
            }
        });
        return opened;
    }

    void send(String text) {
        channel.writeAndFlush(new TextWebSocketFrame(text));
    }

    void send(byte[] binary) {
        channel.writeAndFlush(new BinaryWebSocketFrame(channel.alloc().buffer(binary.length).writeBytes(binary)));
    }

    /** Closes with {@code code}; the connection ends once the close frame is written. */
    void close(int code, String reason) {
        if (channel.isActive()) {
            channel.writeAndFlush(new CloseWebSocketFrame(code, reason)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** The last handler: hands frames to the listener, and the handshake's outcome to the opener. */
    private static final class Frames extends SimpleChannelInboundHandler<WebSocketFrame> {
        private final CompletableFuture<RealtimeUpstream> opened;
        private final Listener listener;
        private boolean closedTold;

        Frames(CompletableFuture<RealtimeUpstream> opened, Listener listener) {
            this.opened = opened;
            this.listener = listener;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
            if (event == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
                opened.complete(new RealtimeUpstream(ctx.channel()));
            } else if (event == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
                opened.completeExceptionally(new Refused(0, "no handshake answer in time"));
            }
            super.userEventTriggered(ctx, event);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
            if (frame instanceof TextWebSocketFrame text) {
                listener.text(text.text());
            } else if (frame instanceof BinaryWebSocketFrame binary) {
                byte[] bytes = new byte[binary.content().readableBytes()];
                binary.content().readBytes(bytes);
                listener.binary(bytes);
            } else if (frame instanceof CloseWebSocketFrame close) {
                tellClosed(close.statusCode() < 0 ? 1005 : close.statusCode(), close.reasonText());
                ctx.close();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            opened.completeExceptionally(new Refused(0, "the connection closed during the handshake"));
            tellClosed(1006, "the backend's connection ended");
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof WebSocketClientHandshakeException h) {
                int status = h.response() == null ? 0 : h.response().status().code();
                opened.completeExceptionally(new Refused(status, "the backend refused the handshake"));
            } else {
                opened.completeExceptionally(new Refused(0, "the handshake failed: "
                        + cause.getClass().getSimpleName()));
            }
            ctx.close();
        }

        private void tellClosed(int code, String reason) {
            if (!closedTold && opened.isDone() && !opened.isCompletedExceptionally()) {
                closedTold = true;
                listener.closed(code, reason);
            }
        }
    }
}
