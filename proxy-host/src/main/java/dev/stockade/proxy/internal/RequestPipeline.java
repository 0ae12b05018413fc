package dev.stockade.proxy.internal;

import dev.stockade.proxy.EgressReason;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;

/**
 * Builds the request pipeline of a client connection, in the order a request meets it (see
 * docs/proxy-internals.md, "The request pipeline"): deadline, HTTP codec, deadline marker, body
 * aggregation, the sandbox gate (forward port, several sandboxes), the forward handler.
 */
public final class RequestPipeline {
    private RequestPipeline() {
    }

    /** Installs the request pipeline (after whatever TLS sits in front). */
    public static void install(ProxyContext px, ChannelPipeline p, ConnectionInfo conn, ForwardHandler.Tunnel tunnel) {
        install(px, p, conn, tunnel, false);
    }

    /**
     * Installs the request pipeline; {@code transparent} serves origin-form requests whose
     * Host header names the target (plain HTTP seen on the passthrough listener).
     */
    public static void install(ProxyContext px, ChannelPipeline p, ConnectionInfo conn, ForwardHandler.Tunnel tunnel,
                               boolean transparent) {
        String listener = tunnel != null ? "intercepted" : transparent ? "passthrough-http" : "http";
        RequestDeadline deadline = new RequestDeadline(px.config().requestHeadTimeout(), px.config().requestBodyTimeout(),
                (ctx, phase) -> {
                    // a client that trickles a request head or body is cut off, whatever the idle timeout
                    px.record(new Exchange(listener, tunnel != null ? tunnel.host() : "-",
                            tunnel != null ? tunnel.port() : 0, null, null, System.nanoTime())
                            .line(conn, Exchange.Refused.by(EgressReason.REQUEST_TIMEOUT, 408)));
                    ctx.channel().close();
                });
        p.addLast("deadline", deadline);
        p.addLast("http", new HttpServerCodec(8192, px.config().maxHeaderBytes(), 8192));
        p.addLast("deadline-mark", deadline.marker());
        p.addLast("aggregate", new HttpObjectAggregator(px.config().maxBodyBytes()) {
            @Override
            protected void handleOversizedMessage(ChannelHandlerContext ctx, io.netty.handler.codec.http.HttpMessage m)
                    throws Exception {
                // answered 413 here, before any decision: audit it like every other refusal
                String host = tunnel != null ? tunnel.host() : "-";
                String method = m instanceof io.netty.handler.codec.http.HttpRequest r ? r.method().name() : null;
                px.record(new Exchange(listener, host, tunnel != null ? tunnel.port() : 0, method, null,
                        System.nanoTime()).line(conn, Exchange.Refused.by(EgressReason.BODY_TOO_LARGE, 413)));
                super.handleOversizedMessage(ctx, m);
            }
        });
        if (tunnel == null && !transparent && px.sandboxes() != null && !conn.identified()) {
            p.addLast("sandbox", new SandboxGate(px, conn));
        }
        ForwardHandler handler = new ForwardHandler(px, conn, tunnel, transparent);
        if (tunnel != null) {
            p.addLast("forward", handler); // INVARIANT: nothing on a tunnel's request path blocks (see ForwardHandler)
        } else {
            p.addLast(px.blocking(), "forward", handler);
        }
    }

    /** Removes the per-request handlers once the connection stops carrying HTTP requests (the codec stays). */
    static void removeRequestHandlers(ChannelPipeline p) {
        p.remove("forward");
        p.remove("aggregate");
        p.remove("deadline-mark");
        p.remove("deadline");
    }


    /** Turns an answered CONNECT into an intercepted tunnel: TLS with a minted leaf, then a request pipeline. */
    static void intercept(ProxyContext px, io.netty.channel.Channel ch, ConnectionInfo conn, ForwardHandler.Tunnel t) {
        ChannelPipeline p = ch.pipeline();
        removeRequestHandlers(p);
        p.remove("http");
        io.netty.handler.ssl.SslHandler ssl = px.ca().serverContext(t.host()).newHandler(ch.alloc());
        ssl.setHandshakeTimeoutMillis(px.config().handshakeTimeout().toMillis());
        p.addLast("tls", ssl);
        install(px, p, conn, t, false);
        ch.config().setAutoRead(true);
    }
}
