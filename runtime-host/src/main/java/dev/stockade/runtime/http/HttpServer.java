package dev.stockade.runtime.http;

import dev.stockade.runtime.observe.Log;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The runtime's HTTP/1.1 server on Netty. Requests are aggregated (bodies up to {@link #MAX_BODY}) and
 * handed to a bounded worker pool, because handlers block on SQLite; the event loop never blocks.
 */
public final class HttpServer implements AutoCloseable {
    /** Largest request body accepted; larger ones get 413 before a handler runs. */
    public static final int MAX_BODY = 1 << 20;
    /** Requests handled at once; more get 503. */
    public static final int MAX_WORKERS = 256;

    private final EventLoopGroup group;
    private final ExecutorService workers;
    private final Channel channel;

    private HttpServer(EventLoopGroup group, ExecutorService workers, Channel channel) {
        this.group = group;
        this.workers = workers;
        this.channel = channel;
    }

    /** Binds {@code host:port} (port 0 picks a free one) and serves {@code router}. */
    public static HttpServer start(String host, int port, Router router) throws InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        // Handlers block (SQLite, and a chat turn waits on the model for as long as it takes), so threads are
        // many but bounded: past MAX_WORKERS concurrent requests the answer is 503, never an unbounded queue.
        ExecutorService workers = new ThreadPoolExecutor(16, MAX_WORKERS, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "http-worker");
                    t.setDaemon(true);
                    return t;
                });
        ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_BODY),
                                new Dispatch(router, workers));
                    }
                });
        Channel ch = b.bind(host, port).sync().channel();
        return new HttpServer(group, workers, ch);
    }

    /** The bound port. */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        // Workers first: a long-lived stream (a thread's live view) ends and writes its last chunk while the event
        // loop still runs.
        workers.shutdownNow();
        try {
            workers.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Fetch-metadata values of a request this origin's own page made, or a person typed. */
    private static final java.util.Set<String> OWN_SITE = java.util.Set.of("same-origin", "none");

    private static final class Dispatch extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Router router;
        private final ExecutorService workers;

        Dispatch(Router router, ExecutorService workers) {
            this.router = router;
            this.workers = workers;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest msg) {
            boolean keepAlive = HttpUtil.isKeepAlive(msg);
            if (!msg.decoderResult().isSuccess()) {
                write(ctx, new HttpProblem(400, "bad-request", "malformed HTTP request").toResponse(), false);
                return;
            }
            QueryStringDecoder q = new QueryStringDecoder(msg.uri());
            Map<String, String> headers = new HashMap<>();
            msg.headers().forEach(e -> headers.putIfAbsent(e.getKey().toLowerCase(Locale.ROOT), e.getValue()));
            byte[] body = new byte[msg.content().readableBytes()];
            msg.content().readBytes(body);
            String method = msg.method().name();
            try {
                workers.execute(() -> write(ctx, handle(method, q.path(), headers, body), keepAlive));
            } catch (RejectedExecutionException e) {
                write(ctx, new HttpProblem(503, "busy", "the runtime is handling too many requests or stopping")
                        .toResponse(), false);
            }
        }

        private Response handle(String method, String path, Map<String, String> headers, byte[] body) {
            try {
                refuseCrossSite(method, headers.get("sec-fetch-site"));
                Router.Match m = router.match(method, path);
                return m.handler().handle(new Request(method, path, m.params(), headers, body));
            } catch (HttpProblem p) {
                return p.toResponse();
            } catch (Exception e) {
                // The class name only: exception messages may quote input or a provider's body.
                Log.error("http.handler_failed", "method", method, "error", e.getClass().getSimpleName());
                return new HttpProblem(500, "internal", "the request failed inside the runtime").toResponse();
            }
        }

        /**
         * Refuses a write that a browser says another site's page sent. The runtime authenticates nothing, but the
         * platform's sign-in cookie for the web UI would ride along on a form post or a {@code text/plain} fetch
         * from elsewhere (neither needs a preflight). Callers without fetch metadata (curl, webhook senders) pass.
         */
        private static void refuseCrossSite(String method, String site) {
            if (site != null && !method.equals("GET") && !method.equals("HEAD") && !OWN_SITE.contains(site)) {
                throw new HttpProblem(403, "cross-site", "a write sent by another site's page is refused");
            }
        }

        private static void write(ChannelHandlerContext ctx, Response r, boolean keepAlive) {
            if (r.stream() != null) {
                EventStream.run(ctx, r);
                return;
            }
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.valueOf(r.status()), Unpooled.wrappedBuffer(r.body()));
            if (r.contentType() != null) {
                res.headers().set(HttpHeaderNames.CONTENT_TYPE, r.contentType());
            }
            r.headers().forEach(res.headers()::set);
            res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.body().length);
            if (keepAlive) {
                res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
                ctx.writeAndFlush(res);
            } else {
                ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
