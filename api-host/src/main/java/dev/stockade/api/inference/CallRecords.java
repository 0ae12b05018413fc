package dev.stockade.api.inference;

import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditOutcome;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.spend.Reservation;
import dev.stockade.api.spend.SpendReservations;
import dev.stockade.api.spend.TokenBuckets;
import dev.stockade.api.spend.UsageLedger;
import dev.stockade.inference.BodyMeter;
import dev.stockade.inference.BodyReading;
import dev.stockade.inference.ChatUsageFilter;
import dev.stockade.inference.ForwardBody;
import dev.stockade.inference.RequestShape;
import dev.stockade.inference.ResponseHeaders;
import dev.stockade.inference.StreamMeter;
import dev.stockade.inference.TokenUsage;
import dev.stockade.inference.WireFormat;
import dev.stockade.inference.WireLimits;
import io.micronaut.core.annotation.Nullable;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a model call ends on the books: its audit entry (refused, failed or answered, with tokens, cost and
 * {@code streamTruncated}) and its settlement, the ledger row that replaces the reservation with the metered cost.
 * A body the meter cannot read is settled at the reservation, never at zero. A call under a masking policy carries
 * its masking status ({@link MaskingReport}) and, when it left unmasked, {@code piiMaskingSkipped}.
 */
@Singleton
class CallRecords {
    private static final Logger LOG = LoggerFactory.getLogger(CallRecords.class);
    /** Unstreamed answers larger than this are passed on but not metered (settled at the reservation). */
    private static final int HOLD_LIMIT = 8 * 1024 * 1024;

    /** What is known of a call as it proceeds; details for its audit entry. */
    static final class Context {
        private final LlmProxy.Call call;
        private final UUID sandboxId;
        private final Instant started;
        private RequestShape shape;
        private InferenceKeys.UpstreamKey key;
        private MaskingReport masking;

        Context(LlmProxy.Call call, @Nullable UUID sandboxId, Instant started) {
            this.call = call;
            this.sandboxId = sandboxId;
            this.started = started;
        }

        @Nullable
        UUID sandboxId() {
            return sandboxId;
        }

        void shape(RequestShape shape, InferenceKeys.UpstreamKey key) {
            this.shape = shape;
            this.key = key;
        }

        /** What PII masking did with the request; the last report wins. */
        void masking(MaskingReport report) {
            this.masking = report;
        }

        /** What PII masking reported so far; null when the call is not under a masking policy. */
        @Nullable
        MaskingReport masking() {
            return masking;
        }
    }

    private final AuditAppender audit;
    private final SpendReservations reservations;
    private final Pricing pricing;
    private final WireLimits limits;
    private final BodyMeter bodies;
    private final Clock clock;
    private final Settlements settlements = new Settlements();

    CallRecords(AuditAppender audit, SpendReservations reservations, Pricing pricing, Backends backends,
                Clock clock) {
        this.audit = audit;
        this.reservations = reservations;
        this.pricing = pricing;
        this.limits = backends.limits();
        this.bodies = new BodyMeter(limits);
        this.clock = clock;
    }

    /** A normal stop settles the calls that ended before it (beans close before those they depend on). */
    @PreDestroy
    void drain() throws InterruptedException {
        settlements.drain();
    }

    Context context(LlmProxy.Call call, @Nullable UUID sandboxId) {
        return new Context(call, sandboxId, clock.instant());
    }

    /** Records a refusal before anything was sent upstream. */
    void refused(Context ctx, ApiProblem problem) {
        Map<String, Object> d = details(ctx);
        d.put("status", problem.code().status().getCode());
        d.put("code", problem.code().code());
        d.put("reason", problem.detail());
        append(ctx, AuditOutcome.DENIED, d);
    }

    /** Wraps the backend's answer so that its end settles and records the call. */
    LlmProxy.Answer answer(Context ctx, Reservation held, RequestShape shape, ForwardBody sent,
                           ClassicHttpResponse response, InputStream body) {
        int status = response.getCode();
        Map<String, List<String>> headers = new HashMap<>();
        Map<String, String> firsts = new HashMap<>();
        for (Header h : response.getHeaders()) {
            firsts.putIfAbsent(h.getName().toLowerCase(java.util.Locale.ROOT), h.getValue());
            if (Upstreams.passesBack(h.getName())) {
                headers.computeIfAbsent(h.getName(), k -> new ArrayList<>()).add(h.getValue());
            }
        }
        ResponseHeaders upstream = ResponseHeaders.of(firsts);
        if (status == 204 || status == 205 || status == 304 || status >= 300) {
            // no usage in a bodiless or failed answer: nothing was spent that the backend reports
            return new LlmProxy.Answer(status, headers, status >= 300 && status != 304
                    ? ended(body, e -> later(ctx, held, shape, status, e, upstream)) : closeNow(body, () ->
                    later(ctx, held, shape, status, new MeteredBody.Ending(Optional.empty(), Optional.empty(),
                            false, false, false), upstream)));
        }
        WireFormat format = shape.format();
        String type = firsts.getOrDefault("content-type", "");
        boolean streamed = type.startsWith("text/event-stream") || type.startsWith("application/vnd.amazon.eventstream");
        MeteredBody metered = streamed
                ? MeteredBody.streamed(body, format, StreamMeter.start(format, limits),
                        e -> later(ctx, held, shape, status, e, upstream))
                : MeteredBody.whole(body, format, bytes -> read(format, bytes, upstream), HOLD_LIMIT,
                        e -> later(ctx, held, shape, status, e, upstream));
        boolean addedUsage = streamed && format == WireFormat.OPENAI_CHAT && sent.rewritten()
                && !sent.clientAskedForUsage();
        return new LlmProxy.Answer(status, headers, addedUsage
                ? new UsageWithheldBody(metered, new ChatUsageFilter(limits)) : metered);
    }

    private MeteredBody.UsageRead read(WireFormat format, byte[] bytes, ResponseHeaders headers) {
        BodyReading r = bodies.read(format, bytes, headers);
        return new MeteredBody.UsageRead(r.usage(), r.model(), r.problem().isEmpty());
    }

    /** A failed answer's body passes on unmetered; its end only records the call. */
    private static InputStream ended(InputStream body, java.util.function.Consumer<MeteredBody.Ending> onEnd) {
        return MeteredBody.whole(body, WireFormat.OPENAI_CHAT, bytes -> new MeteredBody.UsageRead(Optional.empty(),
                Optional.empty(), true), 0, onEnd);
    }

    private static InputStream closeNow(InputStream body, Runnable then) {
        try {
            body.close();
        } catch (java.io.IOException e) {
            // nothing was to be read from it
        }
        then.run();
        return null;
    }

    /** Settles the call off the caller's path ({@link Settlements}). */
    private void later(Context ctx, Reservation held, RequestShape shape, int status, MeteredBody.Ending e,
                       ResponseHeaders headers) {
        settlements.settle(() -> settle(ctx, held, shape, status, e, headers));
    }

    /** Settles the reservation with what the answer showed, then records the call. */
    private void settle(Context ctx, Reservation held, RequestShape shape, int status, MeteredBody.Ending e,
                        ResponseHeaders headers) {
        Map<String, Object> d = details(ctx);
        d.put("status", status);
        d.put("stream", shape.stream());
        if (e.truncated()) {
            d.put("streamTruncated", true);
        }
        if (e.callerGone()) {
            d.put("callerGone", true);
        }
        String model = e.model().or(shape::model).filter(m -> !m.isBlank() && m.length() <= 200).orElse("unknown");
        try {
            if (e.unreadable()) {
                // fail closed: an answer whose usage cannot be read costs what was reserved for it
                d.put("usageUnreadable", true);
                d.put("costMicros", held.heldMicros());
                reservations.settle(held, usage(ctx, model, TokenUsage.NONE, held.heldMicros()));
            } else if (e.usage().isEmpty()) {
                reservations.release(held); // the backend reported nothing spent (a refusal, a bodiless answer)
            } else {
                settleSeen(ctx, held, shape.format(), model, e.usage().get(), d);
            }
        } catch (RuntimeException failed) {
            LOG.error("settling a model call of project {} failed ({}); its reservation lapses at expiry",
                    ctx.call.projectId(), failed.getClass().getSimpleName());
        }
        boolean ok = status < 400 && !e.truncated();
        append(ctx, ok ? AuditOutcome.SUCCESS : AuditOutcome.ERROR, d);
    }

    private void settleSeen(Context ctx, Reservation held, WireFormat format, String model, TokenUsage u,
                            Map<String, Object> d) {
        Optional<Long> cost = pricing.costMicros(ctx.call.route().provider(), format, model, u);
        d.put("inputTokens", u.inputTokens());
        d.put("outputTokens", u.outputTokens());
        d.put("cacheReadTokens", u.cacheReadTokens());
        d.put("cacheWriteTokens", u.cacheWriteTokens());
        cost.ifPresentOrElse(c -> d.put("costMicros", c), () -> d.put("unpriced", true));
        reservations.settle(held, usage(ctx, model, u, cost.orElse(null)));
    }

    private UsageLedger.Usage usage(Context ctx, String model, TokenUsage u, @Nullable Long cost) {
        return new UsageLedger.Usage(ctx.call.orgId(), ctx.call.projectId(), ctx.sandboxId,
                ctx.call.route().provider(), model, TokenBuckets.of(u), cost, true, null);
    }

    private Map<String, Object> details(Context ctx) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("provider", ctx.call.route().provider().wire());
        d.put("route", ctx.call.route().prefix());
        if (ctx.sandboxId != null) {
            d.put("sandboxId", ctx.sandboxId.toString());
        }
        if (ctx.key != null) {
            d.put("keySource", ctx.key.source().slug());
        }
        if (ctx.masking != null) {
            d.put("piiMasking", ctx.masking);
            if (ctx.masking.leftUnmasked()) {
                d.put("piiMaskingSkipped", true); // the spec's audit flag: this request left unmasked
            }
        }
        d.put("durationMs", Duration.between(ctx.started, clock.instant()).toMillis());
        return d;
    }

    private void append(Context ctx, AuditOutcome outcome, Map<String, Object> d) {
        String action = ctx.shape == null ? "call" : ctx.shape.format().name().toLowerCase(java.util.Locale.ROOT);
        audit.append(AuditEvent.of(AuditKind.INFERENCE, action).org(ctx.call.orgId()).project(ctx.call.projectId())
                .outcome(outcome).by(ctx.call.caller())
                .target(ctx.shape == null ? null : ctx.shape.model().orElse(null)).details(d).build());
    }
}
