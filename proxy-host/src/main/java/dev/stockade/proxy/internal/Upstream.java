package dev.stockade.proxy.internal;

import dev.stockade.proxy.HostRefusal;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameEncoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * One request to an origin: dials the address the dial guard checked (never re-resolving), speaks
 * TLS with certificate and host name verification when asked, relays the response to the client
 * with backpressure, and reports how it ended.
 */
public final class Upstream {

    /** How a forwarded request ended. */
    public interface Completion {
        /**
         * @param status      status sent to the client (502 when the origin failed before answering)
         * @param bytesOut    response body bytes relayed
         * @param closeClient whether the client connection must now close
         * @param upgraded    the origin switched protocols and the connection is now spliced
         * @param subprotocol the {@code Sec-WebSocket-Protocol} the origin chose on a 101, else {@code null}
         * @param error       {@code origin-cut-short} when the origin stopped before the response's end (the
         *                    client connection is then closed), else {@code null}
         */
        void done(int status, long bytesOut, boolean closeClient, boolean upgraded, String subprotocol, String error);
    }

    /** The client channel that currently owns an origin channel (lent from the pool or dialed for it). */
    private static final AttributeKey<Channel> OWNER = AttributeKey.valueOf("stockade.origin.owner");
    /** The origin channel serving a client channel's current request. */
    private static final AttributeKey<Channel> CURRENT = AttributeKey.valueOf("stockade.origin.current");

    private Upstream() {
    }

    /**
     * Sends {@code request} (ownership passes here) to {@code address:port} and relays the answer.
     * With {@code frames}, a 101 leaves a websocket frame encoder (masking, as a client must) on the
     * origin side, so that judged client frames can be written to it as frames.
     *
     * <p>Requests that are not upgrades go over a kept-alive connection from {@link ProxyContext#originPool}
     * when one is idle for exactly this (sandbox, scheme, host, port, address, server name), and the
     * connection returns to the pool when the response was read to its end and neither side closes it.
     * The caller has decided the request already: the pool is only transport.
     *
     * @return the origin channel's future, so the caller can splice it after an upgrade
     */
    public static ChannelFuture forward(ProxyContext px, Channel client, FullHttpRequest request, String sandbox,
                                        String host, InetAddress address, int port, boolean tls, boolean keepClient,
                                        boolean upgrade, boolean frames, Completion completion) {
        OriginPool.Key key = new OriginPool.Key(sandbox == null ? "" : sandbox, tls ? "https" : "http", host, port,
                address, tls ? host : null);
        boolean poolable = !upgrade && px.originPool().enabled();
        boolean head = request.method().name().equals("HEAD");
        if (!poolable) {
            return dial(px, client, request, key, tls, new Relay(px, client, keepClient, upgrade, frames, head,
                    completion, key, false, null));
        }
        Channel pooled = px.originPool().acquire(key, client.eventLoop());
        if (pooled == null) {
            return dial(px, client, request, key, tls, new Relay(px, client, keepClient, false, false, head,
                    completion, key, true, null));
        }
        // a kept-alive connection may have been closed by the origin just as it is reused: an idempotent
        // request that got no answer byte is sent once more, on a fresh connection
        String m = request.method().name();
        boolean idempotent = m.equals("GET") || m.equals("HEAD") || m.equals("OPTIONS");
        Retry retry = null;
        if (idempotent && request.content().readableBytes() == 0) {
            request.retain(); // the encoder releases one reference per send
            retry = new Retry(request, () -> dial(px, client, request, key, tls, new Relay(px, client, keepClient,
                    false, false, head, completion, key, true, null)));
        }
        Relay relay = new Relay(px, client, keepClient, false, false, head, completion, key, true, retry);
        pooled.eventLoop().execute(() -> {
            own(client, pooled);
            pooled.pipeline().replace("relay", "relay", relay);
            send(pooled, request, relay);
        });
        return pooled.newSucceededFuture();
    }

    /**
     * Closes the origin channel still serving {@code client}'s request (the client went away); one the
     * request already gave back to the pool is left alone.
     */
    public static void abandon(Channel client) {
        client.eventLoop().execute(() -> {
            Channel origin = client.attr(CURRENT).getAndSet(null);
            if (origin != null && origin.attr(OWNER).get() == client) {
                origin.close();
            }
        });
    }

    private static void own(Channel client, Channel origin) {
        origin.attr(OWNER).set(client);
        client.attr(CURRENT).set(origin);
    }

    private static ChannelFuture dial(ProxyContext px, Channel client, FullHttpRequest request, OriginPool.Key key,
                                      boolean tls, Relay relay) {
        String host = key.host();
        int port = key.port();
        Bootstrap b = new Bootstrap().group(client.eventLoop()).channel(Transports.socketChannelLike(client))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) px.config().connectTimeout().toMillis())
                .option(ChannelOption.AUTO_READ, false)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls) {
                            SslHandler ssl = px.originTls().newHandler(ch.alloc(), host, port);
                            SSLEngine engine = ssl.engine();
                            SSLParameters params = engine.getSSLParameters();
                            // INVARIANT: the origin's certificate must name the host the policy allowed
                            params.setEndpointIdentificationAlgorithm("HTTPS");
                            engine.setSSLParameters(params);
                            ssl.setHandshakeTimeoutMillis(px.config().handshakeTimeout().toMillis());
                            ch.pipeline().addLast("tls", ssl);
                        }
                        ch.pipeline().addLast("idle", new IdleStateHandler(0, 0,
                                px.config().idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
                        ch.pipeline().addLast("http", new HttpClientCodec(8192, 65536, 8192));
                        ch.pipeline().addLast("relay", relay);
                    }
                });
        ChannelFuture f = b.connect(new InetSocketAddress(key.address(), port));
        // INVARIANT: the generation is stamped before the connection can carry anything, so a halt or
        // reload from now on keeps it out of the pool
        px.originPool().opened(f.channel());
        f.addListener((ChannelFutureListener) cf -> {
            if (!cf.isSuccess()) {
                ReferenceCountUtil.release(request);
                relay.failBeforeAnswer();
                return;
            }
            px.channels().add(cf.channel());
            own(client, cf.channel());
            send(cf.channel(), request, relay);
        });
        return f;
    }

    /** A second send of a bodiless idempotent request, holding one reference to it until used or dropped. */
    private static final class Retry {
        private final FullHttpRequest request;
        private final Runnable action;

        Retry(FullHttpRequest request, Runnable action) {
            this.request = request;
            this.action = action;
        }

        void run() {
            action.run();
        }

        void drop() {
            ReferenceCountUtil.release(request);
        }
    }

    private static void send(Channel origin, FullHttpRequest request, Relay relay) {
        origin.writeAndFlush(request).addListener((ChannelFutureListener) wf -> {
            if (wf.isSuccess()) {
                origin.read();
            } else {
                relay.reusable = false; // the request failed: never reuse the connection
                origin.close();
            }
        });
    }

    private static final class Relay extends ChannelInboundHandlerAdapter {
        private final ProxyContext px;
        private final Channel client;
        private final boolean keepClient;
        private final boolean upgrade;
        private final boolean frames;
        private final boolean head;
        private final Completion completion;
        private final OriginPool.Key key;
        /** Whether the connection may go back to the pool once this response was read to its end. */
        volatile boolean reusable;
        private Retry retry;
        private boolean originKeepAlive;
        private boolean released;
        private boolean started;
        private boolean finished;
        private boolean closeClient;
        private int status;
        private final AtomicLong bytesOut = new AtomicLong();
        private java.util.List<Object> early;
        // INVARIANT: touched only on the client's event loop, which the origin channel shares
        private int pendingWrites;

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            client.flush();
            // a read that yielded nothing for the client (a TLS record, a partial head) needs another
            // read; otherwise the next read waits for the client to drain what was written
            if (pendingWrites == 0 && !finished) {
                ctx.read();
            }
        }

        Relay(ProxyContext px, Channel client, boolean keepClient, boolean upgrade, boolean frames, boolean head,
              Completion completion, OriginPool.Key key, boolean reusable, Retry retry) {
            this.px = px;
            this.key = key;
            this.reusable = reusable;
            this.retry = retry;
            this.frames = frames;
            this.client = client;
            this.keepClient = keepClient;
            this.upgrade = upgrade;
            this.head = head;
            this.completion = completion;
            this.closeClient = !keepClient;
        }

        void failBeforeAnswer() {
            if (finished) {
                return;
            }
            finished = true;
            if (retry != null) {
                Retry r = retry;
                retry = null;
                r.run();
                return;
            }
            client.writeAndFlush(Responses.text(io.netty.handler.codec.http.HttpResponseStatus.BAD_GATEWAY,
                    "stockade: origin unreachable or failed verification\n"));
            completion.done(502, 0, true, false, null, null);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (early != null && msg instanceof io.netty.buffer.ByteBuf raw) {
                early.add(raw); // origin bytes that followed the 101 in the same read
                return;
            }
            if (finished) {
                ReferenceCountUtil.release(msg);
                return;
            }
            if (msg instanceof HttpResponse r) {
                started = true;
                if (retry != null) {
                    retry.drop();
                    retry = null;
                }
                status = r.status().code();
                // HTTP/1.0 without keep-alive, or Connection: close, ends the connection after this response
                originKeepAlive = HttpUtil.isKeepAlive(r) && status >= 200;
                if (status == 101 && upgrade) {
                    switchProtocols(ctx, r);
                    return;
                }
                sanitise(r);
            }
            if (msg instanceof HttpContent c) {
                bytesOut.addAndGet(c.content().readableBytes());
                px.metrics().bytesOut(c.content().readableBytes());
            }
            boolean last = msg instanceof LastHttpContent;
            pendingWrites++;
            client.write(msg).addListener((ChannelFutureListener) f -> {
                pendingWrites--;
                if (!f.isSuccess()) {
                    if (!released) {
                        ctx.channel().close();
                    }
                } else if (pendingWrites == 0 && !finished) {
                    ctx.read();
                }
            });
            if (last) {
                finished = true;
                client.flush();
                Channel origin = ctx.channel();
                boolean reuse = reusable && originKeepAlive && origin.isActive();
                completion.done(status, bytesOut.get(), closeClient, false, null, null);
                if (reuse) {
                    released = true;
                    origin.attr(OWNER).set(null);
                    if (client.attr(CURRENT).get() == origin) {
                        client.attr(CURRENT).set(null);
                    }
                    px.originPool().release(key, origin);
                } else {
                    origin.close();
                }
            }
        }

        private void sanitise(HttpResponse r) {
            r.headers().remove(HttpHeaderNames.CONNECTION).remove(HttpHeaderNames.KEEP_ALIVE)
                    .remove(HttpHeaderNames.PROXY_AUTHENTICATE).remove("Proxy-Connection");
            boolean bodiless = head || status == 204 || status == 304 || status < 200;
            if (!bodiless && !HttpUtil.isContentLengthSet(r) && !HttpUtil.isTransferEncodingChunked(r)) {
                // a close-delimited origin body: frame it for the client so the connection can be reused
                HttpUtil.setTransferEncodingChunked(r, true);
            }
            if (closeClient) {
                r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            }
        }

        private void switchProtocols(ChannelHandlerContext ctx, HttpResponse r) {
            finished = true;
            early = new java.util.ArrayList<>();
            Channel origin = ctx.channel();
            String subprotocol = r.headers().get(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL);
            client.writeAndFlush(r).addListener((ChannelFutureListener) f -> {
                if (!f.isSuccess()) {
                    origin.close();
                    return;
                }
                // the origin side is swapped here, before done() swaps the client side, so that no client
                // frame can reach the origin pipeline while it still speaks HTTP
                origin.pipeline().replace(this, "splice", new Splice(client, bytesOut, px.metrics()::bytesOut, null));
                origin.pipeline().remove("http");
                if (frames) {
                    origin.pipeline().addBefore("splice", "ws-encoder", new WebSocket08FrameEncoder(true));
                }
                completion.done(101, 0, false, true, subprotocol, null);
                for (Object o : early) {
                    client.write(o);
                }
                client.flush();
                early = null;
            });
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!finished) {
                if (!started) {
                    failBeforeAnswer();
                } else {
                    // a stream cut short fails the response: the client must not take it as complete
                    finished = true;
                    client.close();
                    completion.done(status, bytesOut.get(), true, false, null, HostRefusal.ORIGIN_CUT_SHORT.code());
                }
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent) {
                ctx.close();
            } else {
                ctx.fireUserEventTriggered(evt);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

    }
}
