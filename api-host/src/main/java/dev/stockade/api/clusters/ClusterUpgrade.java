package dev.stockade.api.clusters;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.AuditHomes;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.WorkGate;
import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditOutcome;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.identity.Authenticator;
import dev.stockade.api.kernel.identity.BearerToken;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.identity.ProtectedResource;
import dev.stockade.api.kernel.web.AfterHttpCodec;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.Problems;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.micronaut.scheduling.TaskExecutors;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upgrade requests to {@code /v1/clusters/{clusterId}/proxy/{path}} (exec, attach, port-forward over WebSocket or
 * SPDY/3.1): taken off the HTTP/1.1 pipeline before the framework routes them (its router would answer an upgrade as
 * a plain request), then admitted as every proxied request is: the enrollment gate, a cluster JWT only (anything else
 * 401), the authorization table's {@link Action#CLUSTER_PROXY} decision (a refusal audited as the access filter
 * audits it), then {@link ClusterStreams}. A refusal is problem details, then the connection closes.
 */
@Singleton
final class ClusterUpgrade implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterUpgrade.class);
    static final String NAME = "stockade-cluster-upgrade";
    private static final Pattern PROXY = Pattern.compile("/v1/clusters/([^/?]+)/proxy(/[^?]*)?");
    private static final Pattern RELAY_STREAM = Pattern.compile("/v1/clusters/([^/?]+)/relay/streams/([^/?]+)");

    private final WorkGate gate;
    private final Authenticator authenticator;
    private final Authorizer authorizer;
    private final AuditHomes homes;
    private final AuditAppender audit;
    private final PlatformConfig config;
    private final ClusterStreams streams;
    private final Problems problems;
    private final ObjectMapper json;
    private final ExecutorService blocking;
    private final ClusterService clusters;
    private final RelayStreams relayed;

    ClusterUpgrade(WorkGate gate, Authenticator authenticator, Authorizer authorizer, AuditHomes homes,
                   AuditAppender audit, PlatformConfig config, ClusterStreams streams, Problems problems,
                   ObjectMapper json, @Named(TaskExecutors.BLOCKING) ExecutorService blocking,
                   ClusterService clusters, RelayStreams relayed) {
        this.clusters = clusters;
        this.relayed = relayed;
        this.gate = gate;
        this.authenticator = authenticator;
        this.authorizer = authorizer;
        this.homes = homes;
        this.audit = audit;
        this.config = config;
        this.streams = streams;
        this.problems = problems;
        this.json = json;
        this.blocking = blocking;
    }

    @Override
    public NettyServerCustomizer.Registry onCreated(BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
        // HTTP/1.1 only: an upgrade is an HTTP/1.1 mechanism (h2 would need extended CONNECT, not offered)
        AfterHttpCodec.register(event.getBean(), NAME, Interceptor::new);
        return event.getBean();
    }

    /** Watches each request on a connection; takes over the first upgrade request to a cluster proxy path. */
    private final class Interceptor extends ChannelInboundHandlerAdapter {
        private boolean taken;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (taken) {
                ReferenceCountUtil.release(msg); // the handshake's empty body; nothing else is read before the switch
                return;
            }
            if (msg instanceof HttpRequest req) {
                Optional<StreamKind.Protocol> protocol = StreamKind.Protocol.of(req.headers().get(HttpHeaderNames.UPGRADE));
                Matcher m = PROXY.matcher(req.uri());
                if (protocol.isPresent() && m.lookingAt() && m.end() == rawPathEnd(req.uri())) {
                    taken = true;
                    ctx.channel().config().setAutoRead(false);
                    QueryStringDecoder uri = new QueryStringDecoder(req.uri());
                    int query = req.uri().indexOf('?');
                    ClusterStreams.Handshake handshake = new ClusterStreams.Handshake(req.method().name(),
                            m.group(2) == null ? "" : m.group(2), query < 0 ? null : req.uri().substring(query + 1),
                            req.headers().copy(), protocol.get());
                    String clusterId = m.group(1);
                    ReferenceCountUtil.release(msg);
                    blocking.execute(() -> admit(ctx, uri.rawPath(), clusterId, handshake));
                    return;
                }
                Matcher relay = RELAY_STREAM.matcher(req.uri());
                if (RelayStreams.UPGRADE.equalsIgnoreCase(req.headers().get(HttpHeaderNames.UPGRADE))
                        && relay.matches()) {
                    taken = true;
                    ctx.channel().config().setAutoRead(false);
                    var headers = req.headers().copy();
                    ReferenceCountUtil.release(msg);
                    blocking.execute(() -> admitRelay(ctx, relay.group(1), relay.group(2), headers));
                    return;
                }
            }
            ctx.fireChannelRead(msg);
        }
    }

    private static int rawPathEnd(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? uri.length() : q;
    }

    /** Off the event loop: admission reads the database. */
    private void admit(ChannelHandlerContext ctx, String path, String clusterId, ClusterStreams.Handshake h) {
        try {
            if (Action.CLUSTER_PROXY.gated()) {
                gate.check();
            }
            String token = BearerToken.of(h.headers().get(HttpHeaderNames.AUTHORIZATION)).orElseThrow(() ->
                    new ApiProblem(ProblemCode.UNAUTHENTICATED, "a bearer token is required"));
            Identity caller = authenticator.authenticate(token, ProtectedResource.of(config, path));
            if (!(caller instanceof Identity.ClusterToken sandbox)) {
                throw new ApiProblem(ProblemCode.UNAUTHENTICATED,
                        "the cluster proxy accepts only a cluster token issued to a sandbox");
            }
            authorize(caller, h, path, clusterId);
            streams.open(sandbox, Authorizer.uuid("clusterId", clusterId), h, ctx, p -> refuse(ctx, p));
        } catch (ApiProblem p) {
            refuse(ctx, p);
        } catch (RuntimeException e) {
            LOG.warn("a cluster proxy upgrade could not be admitted", e);
            refuse(ctx, new ApiProblem(ProblemCode.INTERNAL, "the upgrade could not be admitted"));
        }
    }

    /**
     * The relay's stream connection for a handshake it carried: its tunnel token, then the waiting stream it names,
     * whose sandbox receives the API server's {@code 101} (carried in {@link RelayStreams#ANSWER_HEADER}).
     */
    private void admitRelay(ChannelHandlerContext ctx, String clusterId, String requestId,
                            io.netty.handler.codec.http.HttpHeaders headers) {
        try {
            UUID id = Authorizer.uuid("clusterId", clusterId);
            String token = BearerToken.of(headers.get(HttpHeaderNames.AUTHORIZATION)).orElse(null);
            if (!clusters.tunnelTokenMatches(id, token)) {
                throw new ApiProblem(ProblemCode.UNAUTHENTICATED, "the relay's stream needs the cluster's current"
                        + " tunnel token");
            }
            RelayHub.Answer switching = switchingAnswer(headers.get(RelayStreams.ANSWER_HEADER));
            StreamDial.Answer waiting = relayed.claim(id, requestId).orElseThrow(() ->
                    ApiProblem.notFound("stream `" + requestId + "` waiting for the relay"));
            FullHttpResponse toRelay = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.SWITCHING_PROTOCOLS);
            toRelay.headers().set(HttpHeaderNames.UPGRADE, RelayStreams.UPGRADE)
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE);
            ClusterStream stream = waiting.switched(RelayStreams.response(switching, true), ctx.channel());
            ctx.executor().execute(() -> stream.switchRelaySide(ctx, toRelay));
        } catch (ApiProblem p) {
            refuse(ctx, p);
        } catch (RuntimeException e) {
            LOG.warn("a relay's stream connection could not be admitted", e);
            refuse(ctx, new ApiProblem(ProblemCode.INTERNAL, "the relay's stream could not be admitted"));
        }
    }

    private RelayHub.Answer switchingAnswer(String header) {
        try {
            RelayHub.Answer a = json.readValue(java.util.Base64.getDecoder().decode(header == null ? "" : header),
                    RelayHub.Answer.class);
            if (a.status() == 101) {
                return a;
            }
        } catch (java.io.IOException | IllegalArgumentException e) {
            // answered below
        }
        throw new ApiProblem(ProblemCode.VALIDATION_FAILED, "a relay's stream carries the API server's 101 answer"
                + " (base64 JSON with `status`, `headers`) in " + RelayStreams.ANSWER_HEADER);
    }

    /** The table's answer, as for every verb of the cluster proxy; a refusal is audited before it is thrown. */
    private void authorize(Identity caller, ClusterStreams.Handshake h, String path, String clusterId) {
        Map<String, Object> vars = Map.of("clusterId", clusterId);
        try {
            authorizer.authorize(caller, Action.CLUSTER_PROXY, vars);
        } catch (ApiProblem refused) {
            int status = refused.code().status().getCode();
            if (status == 403 || status == 404) {
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("method", h.method());
                details.put("path", path);
                details.put("status", status);
                details.put("code", refused.code().code());
                details.put("upgrade", h.protocol().token);
                for (UUID org : homes.of(caller, Action.CLUSTER_PROXY, vars)) {
                    audit.append(AuditEvent.of(AuditKind.ACCESS, "cluster-proxy").org(org)
                            .outcome(AuditOutcome.DENIED).by(caller).target(h.method() + " " + path)
                            .details(details).build());
                }
            }
            throw refused;
        }
    }

    private void refuse(ChannelHandlerContext ctx, ApiProblem p) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(problems.body(p));
        } catch (JsonProcessingException e) {
            body = new byte[0];
        }
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(p.code().status().getCode()), Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, Problems.PROBLEM_JSON.toString())
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        if (p.code() == ProblemCode.UNAUTHENTICATED) {
            r.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer");
        }
        ctx.executor().execute(() -> ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE));
    }
}
