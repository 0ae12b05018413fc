package dev.stockade.runtime.http;

import dev.stockade.host.sse.SseEvent;
import dev.stockade.host.sse.SseWriter;
import dev.stockade.runtime.observe.Log;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;

/**
 * Writes a streamed {@link Response} as server-sent events over a chunked HTTP/1.1 answer, on the worker
 * that runs the handler. A failure inside the stream becomes a last {@code error} event (a problem
 * object, never the exception's message); the connection closes when the stream ends.
 */
final class EventStream implements Response.Events {
    private final ChannelHandlerContext ctx;

    private EventStream(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    static void run(ChannelHandlerContext ctx, Response r) {
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()));
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, r.contentType())
                .set(HttpHeaderNames.CACHE_CONTROL, "no-cache")
                .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        r.headers().forEach(head.headers()::set);
        ctx.writeAndFlush(head);
        EventStream events = new EventStream(ctx);
        try {
            r.stream().write(events);
        } catch (HttpProblem p) {
            events.send("error", p.body());
        } catch (Exception e) {
            Log.error("http.stream_failed", "error", e.getClass().getSimpleName());
            events.send("error", new HttpProblem(500, "internal", "the request failed inside the runtime").body());
        } finally {
            ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void send(String name, Object data) {
        send(name, null, data);
    }

    @Override
    public void send(String name, String id, Object data) {
        write(SseWriter.frame(new SseEvent(name, new String(Response.bytes(data), StandardCharsets.UTF_8), id)));
    }

    @Override
    public void keepAlive() {
        write(SseWriter.comment("keep-alive"));
    }

    private void write(String frame) {
        if (open()) {
            ctx.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(frame, StandardCharsets.UTF_8)));
        }
    }

    @Override
    public boolean open() {
        return ctx.channel().isActive();
    }
}
