package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.util.ReferenceCountUtil;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Answers a request whose header block exceeds {@code config.maxHeaderBytes} with 431 and problem details (the HTTP
 * decoder refuses such a request before routing, and the framework would otherwise call it 413), then closes the
 * connection, since the rest of the stream cannot be trusted.
 */
@Singleton
final class HeaderLimit implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {
    private final byte[] body;

    HeaderLimit(Problems problems, ObjectMapper json) throws com.fasterxml.jackson.core.JsonProcessingException {
        this.body = json.writeValueAsBytes(problems.body(ProblemCode.HEADERS_TOO_LARGE,
                "the request's header block is larger than `config.maxHeaderBytes`", List.of()));
    }

    @Override
    public NettyServerCustomizer.Registry onCreated(BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
        AfterHttpCodec.register(event.getBean(), "stockade-431", Refuse::new);
        return event.getBean();
    }

    private final class Refuse extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest req && req.decoderResult().isFailure()
                    && req.decoderResult().cause() instanceof TooLongHttpHeaderException) {
                ReferenceCountUtil.release(msg);
                FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                        HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, Unpooled.wrappedBuffer(body));
                r.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/problem+json")
                        .set(HttpHeaderNames.CONTENT_LENGTH, body.length).set(HttpHeaderNames.CONNECTION, "close");
                ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            boolean webSocket = msg instanceof HttpRequest req
                    && "websocket".equalsIgnoreCase(req.headers().get(HttpHeaderNames.UPGRADE));
            ctx.fireChannelRead(msg);
            if (webSocket && ctx.pipeline().context(this) != null) {
                // the framework rebuilds the pipeline for WebSocket frames; a handler left between them loses frames
                ctx.pipeline().remove(this);
            }
        }
    }
}
