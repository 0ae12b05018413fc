package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.halt.OpenStreams;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.config.InferenceConfig;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.sandbox.CallerPolicies;
import dev.stockade.api.sandbox.Sandbox;
import dev.stockade.api.spend.SpendAdmission;
import dev.stockade.policy.model.Provider;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.websocket.CloseReason;
import io.micronaut.websocket.WebSocketSession;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.Closeable;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * Realtime voice over WebSocket ({@code .../llm/openai/v1/realtime}, {@code .../v1/live/sessions}, and the same under
 * {@code azure/openai}): admits the handshake like a model call (halt, the caller's policy, a key) plus the spec's
 * limit of eight sessions per project on this replica and the spending limits, then relays the session to the
 * backend ({@link RealtimeSession}) with the backend's key in place of the caller's token.
 */
@Singleton
final class RealtimeRelay {
    /** The spec's limit: concurrent realtime sessions per project per replica. */
    static final int SESSIONS_PER_PROJECT = 8;
    /** Realtime events carry base64 audio: up to 15 MiB per event on the backends' side. */
    static final int MAX_FRAME = 16 * 1024 * 1024;
    private static final Pattern REALTIME_TAIL = Pattern.compile("(v1/)?(realtime|live/sessions)");
    private static final List<String> CLIENT_HEADERS = List.of("OpenAI-Beta");

    /** A handshake the gate admitted: what the socket needs to open the session. */
    record Admitted(RealtimeSession.Owner owner, InferenceKeys.UpstreamKey key, @Nullable String rawQuery,
                    @Nullable String model, Map<String, String> clientHeaders) {
    }

    private final LlmProxy proxy;
    private final Authorizer authorizer;
    private final CallerPolicies policies;
    private final SpendAdmission budgets;
    private final InferenceConfig config;
    private final Backends backends;
    private final RealtimeMeter meter;
    private final OpenStreams streams;
    private final ObjectMapper json;
    private final Map<UUID, AtomicInteger> open = new ConcurrentHashMap<>();
    private final EventLoopGroup loop = new NioEventLoopGroup(1);
    private final EventExecutorGroup listeners = new DefaultEventExecutorGroup(2);
    private final SslContext tls;

    RealtimeRelay(LlmProxy proxy, Authorizer authorizer, CallerPolicies policies, SpendAdmission budgets,
                  InferenceConfig config, Backends backends, RealtimeMeter meter, OpenStreams streams,
                  ObjectMapper json) throws SSLException {
        this.proxy = proxy;
        this.authorizer = authorizer;
        this.policies = policies;
        this.budgets = budgets;
        this.config = config;
        this.backends = backends;
        this.meter = meter;
        this.streams = streams;
        this.json = json;
        this.tls = SslContextBuilder.forClient().build();
    }

    /**
     * Admits a realtime handshake ({@code llmPath}: the path after {@code /llm/}); throws the refusal, recorded.
     * The caller's project is the path's, or, on {@code /v1/llm/...}, the caller's only one.
     */
    Admitted admit(HttpRequest<?> request, String llmPath) {
        Identity caller = Caller.identity(request);
        Grant grant = CallerProject.of(authorizer, caller, Caller.grant(request));
        LlmRoute route = LlmRoute.parse(llmPath);
        Sandbox sandbox = policies.sandboxOf(caller).orElse(null);
        RealtimeSession.Owner owner = new RealtimeSession.Owner(caller, grant.orgId(), grant.projectId(),
                sandbox == null ? null : sandbox.id(), route, null);
        String model = request.getParameters().get("model", String.class)
                .orElse(request.getParameters().get("deployment"));
        try {
            if (!realtime(route)) {
                throw new ApiProblem(ProblemCode.INFERENCE_NOT_AVAILABLE, "`" + route.prefix() + "/"
                        + dev.stockade.api.kernel.web.Text.clip(route.tail()) + "` is not a realtime voice route"
                        + " (openai/v1/realtime, openai/v1/live/sessions and the same under azure/openai)");
            }
            LlmProxy.Entitlement entitled = proxy.entitle(caller, owner.orgId(), owner.projectId(), route);
            int sessions = open.getOrDefault(owner.projectId(), new AtomicInteger()).get();
            if (sessions >= SESSIONS_PER_PROJECT) {
                throw exhausted(sessions);
            }
            budgets.check(owner.orgId(), owner.projectId(), owner.sandboxId()).require();
            owner = new RealtimeSession.Owner(caller, owner.orgId(), owner.projectId(), owner.sandboxId(), route,
                    entitled.key().source());
            Map<String, String> passed = new LinkedHashMap<>();
            CLIENT_HEADERS.forEach(h -> request.getHeaders().findFirst(h).ifPresent(v -> passed.put(h, v)));
            return new Admitted(owner, entitled.key(), request.getUri().getRawQuery(), model, passed);
        } catch (ApiProblem refused) {
            meter.refused(owner, model, refused);
            throw refused;
        }
    }

    /** Opens the admitted session: takes a session slot, then dials the backend; the client hears of a failure. */
    void open(Admitted a, WebSocketSession client) {
        UUID project = a.owner().projectId();
        AtomicInteger count = open.computeIfAbsent(project, k -> new AtomicInteger());
        if (count.incrementAndGet() > SESSIONS_PER_PROJECT) { // a race past the gate's count
            count.decrementAndGet();
            ApiProblem refused = exhausted(SESSIONS_PER_PROJECT);
            meter.refused(a.owner(), a.model(), refused);
            client.close(new CloseReason(4429, refused.detail()));
            return;
        }
        Closeable[] halt = new Closeable[1];
        RealtimeSession session = new RealtimeSession(a.owner(), a.model(), client, meter, json, () -> {
            count.decrementAndGet();
            streams.forget(a.owner().orgId(), halt[0]);
        });
        halt[0] = session::halt;
        streams.track(a.owner().orgId(), halt[0]);
        client.put(RealtimeSession.class.getName(), session);
        dial(a, session, client);
    }

    private void dial(Admitted a, RealtimeSession session, WebSocketSession client) {
        URI http = Upstreams.url(config, a.owner().route(), a.rawQuery());
        URI uri = URI.create((http.getScheme().equals("https") ? "wss" : "ws") + http.toString()
                .substring(http.getScheme().length()));
        InetAddress address;
        try {
            address = backends.resolve(uri.getHost());
        } catch (UnknownHostException e) {
            session.clientClosed();
            client.close(new CloseReason(4502, "the backend is not dialed: " + e.getMessage()));
            return;
        }
        Map<String, String> headers = new LinkedHashMap<>(a.clientHeaders());
        headers.putAll(Upstreams.credential(a.owner().route(), a.key()));
        RealtimeUpstream.open(loop, listeners, tls, uri, address, headers, MAX_FRAME, session)
                .whenComplete((up, failed) -> {
                    if (failed == null) {
                        session.connected(up);
                        return;
                    }
                    session.clientClosed();
                    int status = failed instanceof RealtimeUpstream.Refused r ? r.status : 0;
                    client.close(new CloseReason(status > 0 ? 4000 + Math.min(status, 999) : 4502,
                            "the backend refused the session" + (status > 0 ? " (" + status + ")" : "")));
                });
    }

    /** How many realtime sessions the project has open on this replica. */
    int sessions(UUID projectId) {
        return open.getOrDefault(projectId, new AtomicInteger()).get();
    }

    private static boolean realtime(LlmRoute route) {
        return (route.provider() == Provider.OPENAI || route.provider() == Provider.AZURE)
                && route.family() == LlmRoute.Family.OPENAI && REALTIME_TAIL.matcher(route.tail()).matches();
    }

    private static ApiProblem exhausted(int sessions) {
        return new ApiProblem(ProblemCode.REALTIME_SESSIONS_EXHAUSTED, "the project has " + sessions
                + " realtime sessions open on this replica, the most it may (" + SESSIONS_PER_PROJECT + ")");
    }

    @PreDestroy
    void close() {
        loop.shutdownGracefully();
        listeners.shutdownGracefully();
    }
}
