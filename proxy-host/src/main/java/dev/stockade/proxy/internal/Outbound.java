package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.proxy.EgressReason;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the forward handler sends on and how a connection changes after an upgrade: the outbound
 * request (hop-by-hop headers gone, the decided Host, only a websocket upgrade kept), the client side
 * of an upgraded connection (spliced, or judged frame by frame), and the answer to a request that did
 * not decode.
 */
final class Outbound {
    private Outbound() {
    }

    /** The status and reason of a request the HTTP decoder could not read. */
    record Malformed(HttpResponseStatus status, EgressReason reason) {
    }

    static Malformed malformed(Throwable cause) {
        if (cause instanceof TooLongHttpHeaderException || cause instanceof TooLongFrameException
                && !(cause instanceof TooLongHttpLineException)) {
            return new Malformed(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, EgressReason.HEADER_TOO_LARGE);
        }
        if (cause instanceof TooLongHttpLineException) {
            return new Malformed(HttpResponseStatus.REQUEST_URI_TOO_LONG, EgressReason.REQUEST_LINE_TOO_LONG);
        }
        return new Malformed(HttpResponseStatus.BAD_REQUEST, EgressReason.INVALID_REQUEST);
    }

    /**
     * The request sent to the origin: {@code out} (already credential-checked) without hop-by-hop
     * headers, with the decided {@code host} and the target {@code uri}; {@code upgrade} keeps exactly a
     * websocket upgrade; without origin reuse the origin connection closes after the answer.
     */
    static FullHttpRequest request(FullHttpRequest req, HttpHeaders out, String host, String uri, boolean upgrade,
                                   boolean reuseOrigins) {
        Headers.stripHopByHop(out);
        out.set(HttpHeaderNames.HOST, host);
        if (upgrade) {
            out.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE);
            out.set(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET);
        } else if (!reuseOrigins) {
            out.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        // otherwise HTTP/1.1 keep-alive: the connection may serve this sandbox's next request to this origin
        FullHttpRequest outbound = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, req.method(), uri,
                req.content().retainedDuplicate(), out, req.trailingHeaders().copy());
        long bytes = req.content().readableBytes();
        if (bytes > 0 || !(req.method().equals(HttpMethod.GET) || req.method().equals(HttpMethod.HEAD))) {
            HttpUtil.setContentLength(outbound, bytes);
        }
        return outbound;
    }

    /** The client side of an upgraded connection without a graphql rule: bytes spliced to the origin. */
    static void splice(ProxyContext px, Channel client, Channel origin) {
        ChannelPipeline p = client.pipeline();
        RequestPipeline.removeRequestHandlers(p);
        p.replace("http", "splice", new Splice(origin, new AtomicLong(), px.metrics()::bytesIn, null));
    }

    /** The client side of a GraphQL websocket: every text message judged by the core before it goes on. */
    static void police(ProxyContext px, ConnectionInfo conn, Channel client, Channel origin, EgressRequest upgrade,
                       String subprotocol, Exchange exchange) {
        ChannelPipeline p = client.pipeline();
        RequestPipeline.removeRequestHandlers(p);
        WebSocketFence.install(px, p, conn, origin, upgrade, subprotocol, new AtomicLong(), exchange);
    }
}
