package dev.stockade.api.sandbox.ingress;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.web.AfterHttpCodec;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.Problems;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.micronaut.scheduling.TaskExecutors;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * WebSocket handshakes for an ingress host ({@code <slug>.<sandboxIngress.host>}): taken off the HTTP/1.1 pipeline
 * before the framework routes them (its WebSocket router knows only the API's sockets), admitted exactly as any other
 * request to that port ({@link Ingress#route}: the same authentication, origin rules, identity headers and
 * auto-start), then sent to the sandbox's port; once the sandbox answers {@code 101}, both connections become one
 * byte relay ({@link SocketRelay}). A refusal is problem details, then the connection closes.
 */
@Singleton
final class IngressUpgrade implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {
    private static final Logger LOG = LoggerFactory.getLogger(IngressUpgrade.class);
    static final String NAME = "stockade-ingress-upgrade";

    private final IngressSettings settings;
    private final Ingress ingress;
    private final Problems problems;
    private final ObjectMapper json;
    private final ExecutorService blocking;
    private final SandboxSocket sockets = new SandboxSocket();

    IngressUpgrade(IngressSettings settings, Ingress ingress, Problems problems, ObjectMapper json,
                   @Named(TaskExecutors.BLOCKING) ExecutorService blocking) {
        this.settings = settings;
        this.ingress = ingress;
        this.problems = problems;
        this.json = json;
        this.blocking = blocking;
    }

    @Override
    public NettyServerCustomizer.Registry onCreated(BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
        // HTTP/1.1 only: WebSockets behind h2c would need extended CONNECT (not offered)
        AfterHttpCodec.register(event.getBean(), NAME, () -> settings.enabled() ? new Interceptor() : null);
        return event.getBean();
    }

    @PreDestroy
    void close() {
        sockets.close();
    }

    /** Watches each request on a connection; takes over the first WebSocket handshake for an ingress host. */
    private final class Interceptor extends ChannelInboundHandlerAdapter {
        private boolean taken;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (taken) {
                ReferenceCountUtil.release(msg); // the handshake has no body; nothing else is read before the switch
                return;
            }
            if (msg instanceof HttpRequest req && "websocket".equalsIgnoreCase(req.headers().get(HttpHeaderNames.UPGRADE))) {
                var label = settings.label(req.headers().get(HttpHeaderNames.HOST));
                if (label.isPresent()) {
                    taken = true;
                    ctx.channel().config().setAutoRead(false);
                    HandshakeView view = HandshakeView.of(req, (InetSocketAddress) ctx.channel().remoteAddress(),
                            ctx.pipeline().get(SslHandler.class) != null);
                    ReferenceCountUtil.release(msg);
                    blocking.execute(() -> admit(ctx, view, label.get()));
                    return;
                }
            }
            ctx.fireChannelRead(msg);
        }
    }

    /** Off the event loop: the admission reads the database and may wait for an auto-start. */
    private void admit(ChannelHandlerContext ctx, HandshakeView view, String label) {
        Ingress.Route route;
        try {
            route = ingress.route(view.request(), label);
        } catch (ApiProblem p) {
            refuse(ctx, p);
            return;
        } catch (RuntimeException e) {
            LOG.warn("an ingress WebSocket handshake failed", e);
            refuse(ctx, new ApiProblem(ProblemCode.INTERNAL, "the handshake could not be admitted"));
            return;
        }
        List<java.util.Map.Entry<String, String>> headers = PortForwarder.forwardedHeaders(view.request(),
                route.identity(), route.privatePort());
        sockets.open(route.address(), view.uri(), headers, new SandboxSocket.Answer() {
            @Override
            public Channel switched(io.netty.handler.codec.http.FullHttpResponse response, Channel upstream) {
                ctx.executor().execute(() -> SocketRelay.switchClientSide(ctx, response, upstream));
                return ctx.channel();
            }

            @Override
            public void refused(io.netty.handler.codec.http.FullHttpResponse response) {
                ctx.executor().execute(() -> ctx.writeAndFlush(response).addListener(
                        io.netty.channel.ChannelFutureListener.CLOSE));
            }

            @Override
            public void unreachable() {
                refuse(ctx, new ApiProblem(ProblemCode.PORT_UNREACHABLE, "nothing answers on port "
                        + route.address().getPort() + " of the sandbox"));
            }
        });
    }

    private void refuse(ChannelHandlerContext ctx, ApiProblem p) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(problems.body(p));
        } catch (JsonProcessingException e) {
            body = new byte[0];
        }
        var response = SocketRelay.closing(HttpResponseStatus.valueOf(p.code().status().getCode()),
                Problems.PROBLEM_JSON.toString(), body);
        ctx.executor().execute(() -> ctx.writeAndFlush(response).addListener(
                io.netty.channel.ChannelFutureListener.CLOSE));
    }
}
