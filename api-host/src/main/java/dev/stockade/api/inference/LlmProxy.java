package dev.stockade.api.inference;

import dev.stockade.api.halt.HaltService;
import dev.stockade.api.halt.OpenStreams;
import dev.stockade.api.kernel.config.InferenceConfig;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.net.GuardedClients;
import dev.stockade.api.kernel.net.GuardedResolver;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.sandbox.CallerPolicies;
import dev.stockade.api.sandbox.Sandbox;
import dev.stockade.api.spend.Reservation;
import dev.stockade.api.spend.SpendReservations;
import dev.stockade.inference.ForwardBody;
import dev.stockade.inference.RequestReader;
import dev.stockade.inference.RequestShape;
import dev.stockade.inference.WireException;
import dev.stockade.inference.WireFormat;
import dev.stockade.inference.WireRoute;
import dev.stockade.pii.Restorer;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.model.ManagedInference;
import dev.stockade.policy.model.PiiMasking;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;

/**
 * The managed-inference proxy: admits a model call (halt, the caller's effective policy, the backend and its key,
 * the request's shape), reserves its maximum cost against every spending limit that applies, forwards it to the
 * backend through the guarded client, and hands back the answer as a {@link MeteredBody} that settles the call
 * when it ends. Under a {@code piiMasking} policy the body leaves masked ({@link RequestMasking}) and, with
 * {@code unmaskResponses}, the answer comes back restored ({@link RestoringBody}). Every refusal is answered as a
 * problem and recorded ({@link CallRecords}).
 */
@Singleton
public class LlmProxy {
    /** One call as the controller read it. */
    record Call(Identity caller, UUID orgId, UUID projectId, String method, LlmRoute route, String rawQuery,
                Map<String, List<String>> headers, byte[] body) {
    }

    /** The backend's answer as it goes back: status, the headers that may cross, the body (null: none). */
    record Answer(int status, Map<String, List<String>> headers, InputStream body) {
    }

    private final InferenceConfig config;
    private final InferenceKeys keys;
    private final CallerPolicies policies;
    private final HaltService halt;
    private final OpenStreams streams;
    private final SpendReservations reservations;
    private final Pricing pricing;
    private final CallRecords records;
    private final Backends backends;
    private final RequestReader reader;
    private final RequestMasking masking;

    LlmProxy(InferenceConfig config, InferenceKeys keys, CallerPolicies policies, HaltService halt,
             OpenStreams streams, SpendReservations reservations, Pricing pricing, CallRecords records,
             Backends backends, RequestMasking masking) {
        this.config = config;
        this.keys = keys;
        this.policies = policies;
        this.halt = halt;
        this.streams = streams;
        this.reservations = reservations;
        this.pricing = pricing;
        this.records = records;
        this.backends = backends;
        this.reader = new RequestReader(backends.limits());
        this.masking = masking;
    }

    /** Forwards {@code call}, or throws the refusal (already recorded). */
    Answer forward(Call call) {
        Sandbox sandbox = policies.sandboxOf(call.caller()).orElse(null);
        CallRecords.Context ctx = records.context(call, sandbox == null ? null : sandbox.id());
        try {
            Admitted admitted = admit(call, ctx);
            return dial(call, ctx, admitted);
        } catch (ApiProblem refused) {
            // a halt answers before any other refusal; on the way in it is read only by the reservation
            ApiProblem answer = refused.code() != ProblemCode.HALTED && halt.get(call.orgId()).halted()
                    ? halted() : refused;
            records.refused(ctx, answer);
            throw answer;
        }
    }

    /**
     * What admission decided: the format, the key, the body to send, the restorer of its answer (null: the answer
     * passes as it is) and the reservation held.
     */
    private record Admitted(WireRoute wire, RequestShape shape, InferenceKeys.UpstreamKey key, ForwardBody body,
                            @Nullable Restorer restorer, Reservation reservation) {
    }

    /** What a caller is entitled to on a route before anything is read: its effective policy and the key. */
    record Entitlement(Resolution resolved, InferenceKeys.UpstreamKey key) {
    }

    /**
     * The admission steps every model call takes, HTTP or realtime: the organization is not halted, the caller's
     * effective policy enables managed inference for the route's backend, and the organization or the installation
     * has a key for it. Throws the refusal (not yet recorded).
     */
    Entitlement entitle(Identity caller, UUID orgId, UUID projectId, LlmRoute route) {
        if (halt.get(orgId).halted()) {
            throw halted();
        }
        return entitled(caller, orgId, projectId, route);
    }

    /** As {@link #entitle}, but the halt is left to the reservation, which reads it in the statement that holds. */
    private Entitlement entitled(Identity caller, UUID orgId, UUID projectId, LlmRoute route) {
        Resolution resolved = policies.resolve(caller, orgId, projectId)
                .filter(r -> r.managedInference() != null && r.managedInference().isEnabled())
                .orElseThrow(() -> notAvailable("managed inference is not enabled by the caller's policies"));
        ManagedInference mi = resolved.managedInference();
        if (!mi.providers().contains(route.provider())) {
            throw notAvailable("the caller's policies enable " + mi.providers().stream().map(p -> p.wire()).toList()
                    + ", not `" + route.provider().wire() + "`");
        }
        InferenceKeys.UpstreamKey key = keys.keyFor(orgId, route.provider()).orElseThrow(() -> notAvailable(
                config.serves(route.provider()) ? "neither the organization nor the installation has a key for `"
                        + route.provider().wire() + "`" : "the installation does not serve `" + route.provider().wire()
                        + "`"));
        return new Entitlement(resolved, key);
    }

    private Admitted admit(Call call, CallRecords.Context ctx) {
        LlmRoute route = call.route();
        Entitlement entitled = entitled(call.caller(), call.orgId(), call.projectId(), route);
        WireRoute wire = WireRoute.of(route.tail()).filter(w -> speaks(route, w.format()))
                .filter(w -> call.method().equals("POST")).orElseThrow(() -> notAvailable("`" + call.method() + " "
                        + route.prefix() + "/" + dev.stockade.api.kernel.web.Text.clip(route.tail())
                        + "` is not a model call this route proxies (" + proxied(route) + ")"));
        Resolution resolved = entitled.resolved();
        InferenceKeys.UpstreamKey key = entitled.key();
        PiiMasking pii = resolved.piiMasking();
        boolean multipart = pii != null && RequestMasking.multipart(call.headers());
        if (multipart) { // recorded before the body is read: a refusal of the upload carries the flag too
            ctx.masking(MaskingReport.skipped(MaskingReport.SkipReason.MULTIPART, null));
        }
        RequestShape shape = read(wire, call.body());
        ctx.shape(shape, key);
        ForwardBody body = forwardBody(wire, shape, call.body());
        RequestMasking.Outcome out = pii == null || multipart ? new RequestMasking.Outcome(body, null)
                : masking.mask(pii, shape.format(), body, ctx);
        long max = pricing.maxCostMicros(route.provider(), shape);
        Reservation held = reservations.reserve(call.orgId(), call.projectId(), ctx.sandboxId(), max).require();
        return new Admitted(wire, shape, key, out.body(), out.restorer(), held);
    }

    private RequestShape read(WireRoute wire, byte[] body) {
        try {
            return reader.read(wire, body);
        } catch (WireException e) {
            throw unreadable(wire, e);
        }
    }

    /** The body to send: the caller's, with stream usage asked for on a Chat Completions stream. */
    private ForwardBody forwardBody(WireRoute wire, RequestShape shape, byte[] body) {
        try {
            return shape.format() == WireFormat.OPENAI_CHAT && shape.stream() ? reader.withStreamUsage(body)
                    : new ForwardBody(body, false, false);
        } catch (WireException e) {
            throw unreadable(wire, e);
        }
    }

    private static ApiProblem unreadable(WireRoute wire, WireException e) {
        return new ApiProblem(ProblemCode.BAD_REQUEST, "the request body cannot be read as a "
                + wire.format().name().toLowerCase(java.util.Locale.ROOT) + " call: " + e.getMessage());
    }

    private Answer dial(Call call, CallRecords.Context ctx, Admitted a) {
        HttpUriRequestBase out = new HttpUriRequestBase("POST", Upstreams.url(config, call.route(), call.rawQuery()));
        Upstreams.copyRequestHeaders(call.headers(), out);
        out.setEntity(new ByteArrayEntity(a.body().bytes(), ContentType.APPLICATION_JSON));
        Upstreams.authorize(out, call.route(), a.key()); // after the body: a signature may cover it
        ClassicHttpResponse response;
        InputStream raw;
        try {
            response = backends.client().executeOpen(null, out, null);
            raw = GuardedClients.body(response, out);
        } catch (IOException e) {
            reservations.release(a.reservation());
            throw new ApiProblem(ProblemCode.UPSTREAM_FAILED, unreachable(call.route(), e));
        }
        Answer answer = records.answer(ctx, a.reservation(), a.shape(), a.body(), response,
                streams.track(call.orgId(), raw));
        return a.restorer() == null ? answer : RestoringBody.restore(answer, a.shape().format(), a.restorer());
    }

    private static boolean speaks(LlmRoute route, WireFormat format) {
        return switch (route.family()) {
            case ANTHROPIC -> format == WireFormat.ANTHROPIC_MESSAGES;
            case OPENAI -> format == WireFormat.OPENAI_CHAT || format == WireFormat.OPENAI_RESPONSES
                    || format == WireFormat.OPENAI_EMBEDDINGS;
            case BEDROCK -> format == WireFormat.BEDROCK_INVOKE || format == WireFormat.BEDROCK_CONVERSE;
        };
    }

    private static String proxied(LlmRoute route) {
        return switch (route.family()) {
            case ANTHROPIC -> "POST v1/messages";
            case OPENAI -> "POST chat/completions, responses and embeddings";
            case BEDROCK -> "POST model/{modelId}/invoke, invoke-with-response-stream, converse and converse-stream";
        };
    }

    private static String unreachable(LlmRoute route, IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof GuardedResolver.Refused r) {
                return "the backend `" + route.prefix() + "` is not dialed: " + r.getMessage();
            }
        }
        return "the backend `" + route.prefix() + "` did not answer (" + e.getClass().getSimpleName() + ")";
    }

    private static ApiProblem halted() {
        return new ApiProblem(ProblemCode.HALTED, "the organization is halted: model calls are stopped");
    }

    private static ApiProblem notAvailable(String detail) {
        return new ApiProblem(ProblemCode.INFERENCE_NOT_AVAILABLE, detail);
    }
}
