package dev.stockade.api.clusters;

import dev.stockade.api.halt.HaltService;
import dev.stockade.api.halt.OpenStreams;
import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditOutcome;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.proxy.dial.DialGuard;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The cluster proxy's upgraded requests (exec, attach, port-forward over WebSocket or SPDY/3.1), after the caller was
 * authenticated and authorized as for every proxied request ({@link ClusterUpgrade}): refuses them while the
 * organization is halted, for a path other than a pod's streaming subresource, or beyond the sandbox's open streams;
 * sends the handshake to the API server with a request JWT in place of the caller's token ({@link StreamDial}), and
 * audits its answer and the stream's end. An open stream is closed by a halt ({@link OpenStreams}).
 */
@Singleton
class ClusterStreams {
    /** Headers of the handshake itself that cross to the cluster besides the proxy's allowlist. */
    static final Set<String> HANDSHAKE_HEADERS = Set.of("sec-websocket-key", "sec-websocket-version",
            "sec-websocket-protocol");

    private final ClusterService clusters;
    private final ClusterTargets targets;
    private final ClusterProxy proxy;
    private final HaltService halt;
    private final OpenStreams open;
    private final AuditAppender audit;
    private final StreamSettings settings;
    private final StreamDial dial;
    private final RelayStreams relayed;
    private final Map<String, AtomicInteger> perSandbox = new ConcurrentHashMap<>();

    ClusterStreams(ClusterService clusters, ClusterTargets targets, ClusterProxy proxy, HaltService halt,
                   OpenStreams open, AuditAppender audit, StreamSettings settings, RelayStreams relayed) {
        this.relayed = relayed;
        this.clusters = clusters;
        this.targets = targets;
        this.proxy = proxy;
        this.halt = halt;
        this.open = open;
        this.audit = audit;
        this.settings = settings;
        this.dial = new StreamDial(targets.settings());
    }

    /** What the handshake asked for, as the sandbox sent it. */
    record Handshake(String method, String rawPath, String rawQuery, HttpHeaders headers, StreamKind.Protocol protocol) {
    }

    /**
     * Opens one stream for {@code caller}: an {@link ApiProblem} when it is refused here; otherwise the API server's
     * answer reaches {@code client} (the sandbox's connection, behind its HTTP codec) as it comes.
     */
    void open(Identity.ClusterToken caller, UUID clusterId, Handshake h, ChannelHandlerContext client,
              Consumer<ApiProblem> refuse) {
        if (halt.get(caller.orgId()).halted()) {
            throw new ApiProblem(ProblemCode.HALTED, "the organization is halted: cluster exec, attach and"
                    + " port-forward are stopped");
        }
        Cluster cluster = clusters.get(clusterId);
        String path = ProxyPaths.check(h.rawPath());
        StreamKind kind = new StreamKind(h.protocol(), StreamKind.verb(path));
        AtomicInteger held = perSandbox.computeIfAbsent(caller.subject(), k -> new AtomicInteger());
        if (held.incrementAndGet() > settings.maxPerSandbox()) {
            held.decrementAndGet();
            throw new ApiProblem(ProblemCode.TOO_MANY_ATTEMPTS, "the sandbox already has " + settings.maxPerSandbox()
                    + " cluster streams open (clusters.streams.max-per-sandbox); close one first");
        }
        try {
            Outcome outcome = new Outcome(caller, cluster, kind, path, client, held, refuse);
            if (cluster.apiServerUrl() == null) {
                relayed.open(cluster.id(), envelope(caller, cluster, h, path), outcome,
                        targets.settings().responseTimeout());
                return;
            }
            URI base = URI.create(cluster.apiServerUrl());
            InetSocketAddress address = address(base);
            FullHttpRequest out = request(caller, cluster, h, base, path);
            dial.open(address, base, "https".equals(base.getScheme()) ? targets.tls(cluster.caCertificate()) : null,
                    out, outcome);
        } catch (RuntimeException e) {
            held.decrementAndGet();
            throw e;
        }
    }

    /** The handshake as the relay receives it: the allowlisted headers and the {@code Upgrade} it asks for. */
    private RelayHub.Envelope envelope(Identity.ClusterToken caller, Cluster cluster, Handshake h, String path) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        h.headers().forEach(e -> {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            if (ClusterProxy.REQUEST_HEADERS.contains(name) || HANDSHAKE_HEADERS.contains(name)) {
                headers.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
            }
        });
        headers.put("Upgrade", List.of(h.protocol().token));
        return new RelayHub.Envelope(UUID.randomUUID().toString(), h.method(),
                path + (h.rawQuery() == null ? "" : "?" + h.rawQuery()), headers, "",
                proxy.requestToken(caller, cluster, h.method(), path, h.rawQuery(), new byte[0]));
    }

    private InetSocketAddress address(URI base) {
        int port = base.getPort() > 0 ? base.getPort() : "https".equals(base.getScheme()) ? 443 : 80;
        DialGuard.Outcome checked = targets.guard().check(base.getHost());
        if (checked instanceof DialGuard.Refused r) {
            throw new ApiProblem(ProblemCode.CLUSTER_UNREACHABLE, "the cluster's API server is not dialed: " + r.why());
        }
        return new InetSocketAddress(((DialGuard.Allowed) checked).address(), port);
    }

    private FullHttpRequest request(Identity.ClusterToken caller, Cluster cluster, Handshake h, URI base,
                                    String path) {
        String basePath = base.getRawPath() == null ? "" : base.getRawPath();
        FullHttpRequest out = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(h.method()),
                basePath + path + (h.rawQuery() == null ? "" : "?" + h.rawQuery()));
        h.headers().forEach(e -> {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            if (ClusterProxy.REQUEST_HEADERS.contains(name) || HANDSHAKE_HEADERS.contains(name)) {
                out.headers().add(e.getKey(), e.getValue());
            }
        });
        out.headers().set(HttpHeaderNames.HOST, base.getRawAuthority()).set(HttpHeaderNames.CONNECTION, "Upgrade")
                .set(HttpHeaderNames.UPGRADE, h.protocol().token).set(HttpHeaderNames.CONTENT_LENGTH, 0)
                .set(HttpHeaderNames.AUTHORIZATION, "Bearer " + proxy.requestToken(caller, cluster, h.method(), path,
                        h.rawQuery(), new byte[0]));
        return out;
    }

    /** Where the API server's answer goes: to the sandbox, into the audit trail, and into the halt's reach. */
    private final class Outcome implements StreamDial.Answer {
        private final Identity.ClusterToken caller;
        private final Cluster cluster;
        private final StreamKind kind;
        private final String path;
        private final ChannelHandlerContext client;
        private final AtomicInteger held;
        private final Consumer<ApiProblem> refuse;

        Outcome(Identity.ClusterToken caller, Cluster cluster, StreamKind kind, String path,
                ChannelHandlerContext client, AtomicInteger held, Consumer<ApiProblem> refuse) {
            this.refuse = refuse;
            this.caller = caller;
            this.cluster = cluster;
            this.kind = kind;
            this.path = path;
            this.client = client;
            this.held = held;
        }

        @Override
        public ClusterStream switched(io.netty.handler.codec.http.FullHttpResponse response,
                                      io.netty.channel.Channel upstream) {
            record(kind.verb().subresource(), 101, Map.of());
            ClusterStream[] self = new ClusterStream[1];
            ClusterStream stream = new ClusterStream(client.channel(), upstream, kind,
                    settings.maxFrameBytes(), ended -> {
                        held.decrementAndGet();
                        open.forget(caller.orgId(), self[0]);
                        record(kind.verb().subresource() + "-end", 101, Map.of("reason", ended.reason(),
                                "bytesToCluster", ended.bytesToCluster(), "bytesFromCluster",
                                ended.bytesFromCluster(), "seconds", ended.lasted().toSeconds()));
                    });
            self[0] = stream;
            open.track(caller.orgId(), stream);
            client.executor().execute(() -> stream.switchClientSide(client, response, settings.idleTimeout()));
            return stream;
        }

        @Override
        public void answered(io.netty.handler.codec.http.FullHttpResponse response) {
            held.decrementAndGet();
            record(kind.verb().subresource(), response.status().code(), Map.of());
            client.executor().execute(() -> client.writeAndFlush(response).addListener(
                    io.netty.channel.ChannelFutureListener.CLOSE));
        }

        @Override
        public void unreachable(String why) {
            held.decrementAndGet();
            record(kind.verb().subresource(), 502, Map.of());
            refuse.accept(new ApiProblem(ProblemCode.CLUSTER_UNREACHABLE, why));
        }

        private void record(String action, int status, Map<String, Object> more) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("path", path);
            details.put("status", status);
            details.put("protocol", kind.protocol().token);
            details.putAll(more);
            audit.append(AuditEvent.of(AuditKind.CLUSTER_PROXY, action).org(cluster.orgId())
                    .project(cluster.projectId()).read(false)
                    .outcome(status < 400 ? AuditOutcome.SUCCESS : AuditOutcome.ERROR).by(caller)
                    .target(cluster.id().toString()).details(details).build());
        }
    }

    @PreDestroy
    void shutdown() {
        dial.close();
    }
}
