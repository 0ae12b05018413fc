package dev.stockade.proxy.internal;

import dev.stockade.proxy.EgressReason;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
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
         * @param error       {@link EgressReason#ORIGIN_CUT_SHORT} when the origin stopped before the response's end (the
         *                    client connection is then closed), else {@code null}
         */
        void done(int status, long bytesOut, boolean closeClient, boolean upgraded, String subprotocol,
                  EgressReason error);
    }

    /** The client channel that currently owns an origin channel (lent from the pool or dialed for it). */
    static final AttributeKey<Channel> OWNER = AttributeKey.valueOf("stockade.origin.owner");
    /** The origin channel serving a client channel's current request. */
    static final AttributeKey<Channel> CURRENT = AttributeKey.valueOf("stockade.origin.current");

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
            return dial(px, client, request, key, tls, new OriginRelay(px, client, keepClient, upgrade, frames, head,
                    completion, key, false, null));
        }
        Channel pooled = px.originPool().acquire(key, client.eventLoop());
        if (pooled == null) {
            return dial(px, client, request, key, tls, new OriginRelay(px, client, keepClient, false, false, head,
                    completion, key, true, null));
        }
        // a kept-alive connection may have been closed by the origin just as it is reused: an idempotent
        // request that got no answer byte is sent once more, on a fresh connection
        String m = request.method().name();
        boolean idempotent = m.equals("GET") || m.equals("HEAD") || m.equals("OPTIONS");
        OriginRelay.Retry retry = null;
        if (idempotent && request.content().readableBytes() == 0) {
            request.retain(); // the encoder releases one reference per send
            retry = new OriginRelay.Retry(request, () -> dial(px, client, request, key, tls, new OriginRelay(px, client, keepClient,
                    false, false, head, completion, key, true, null)));
        }
        OriginRelay relay = new OriginRelay(px, client, keepClient, false, false, head, completion, key, true, retry);
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

    static void own(Channel client, Channel origin) {
        origin.attr(OWNER).set(client);
        client.attr(CURRENT).set(origin);
    }

    private static ChannelFuture dial(ProxyContext px, Channel client, FullHttpRequest request, OriginPool.Key key,
                                      boolean tls, OriginRelay relay) {
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

    private static void send(Channel origin, FullHttpRequest request, OriginRelay relay) {
        origin.writeAndFlush(request).addListener((ChannelFutureListener) wf -> {
            if (wf.isSuccess()) {
                origin.read();
            } else {
                relay.reusable = false; // the request failed: never reuse the connection
                origin.close();
            }
        });
    }
}
