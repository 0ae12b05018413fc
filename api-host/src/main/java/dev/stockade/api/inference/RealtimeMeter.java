package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditOutcome;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.spend.Reservation;
import dev.stockade.api.spend.SpendReservations;
import dev.stockade.api.spend.TokenBuckets;
import dev.stockade.api.spend.UsageLedger;
import dev.stockade.inference.RealtimeUsage;
import dev.stockade.inference.RequestShape;
import dev.stockade.inference.TokenUsage;
import dev.stockade.inference.WireFormat;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Meters a realtime voice session one response at a time (spec: usage from each {@code response.done}, audited per
 * response, the spending limit checked per response): before a response starts its maximum cost is reserved like
 * an HTTP call's, and its {@code response.done} settles it at the metered cost, with one ledger row and one audit
 * entry. Realtime is never masked, so every entry carries {@code piiMaskingSkipped}.
 */
@Singleton
record RealtimeMeter(SpendReservations reservations, UsageLedger ledger, Pricing pricing, AuditAppender audit) {
    /** Reserves the most one response of the session can cost; {@code maxOutputTokens} empty: the model's bound. */
    Reservation.Result reserve(RealtimeSession.Owner owner, @Nullable String model, OptionalLong maxOutputTokens) {
        RequestShape shape = new RequestShape(WireFormat.OPENAI_REALTIME, Optional.ofNullable(model), true,
                maxOutputTokens, 0, true);
        long max = pricing.maxCostMicros(owner.route().provider(), shape);
        return reservations.reserve(owner.orgId(), owner.projectId(), owner.sandboxId(), max);
    }

    /**
     * Settles one response from its {@code response.done} event: its usage priced and written to the ledger (against
     * {@code held} when the response had a reservation), and its audit entry.
     */
    void settle(RealtimeSession.Owner owner, @Nullable String model, @Nullable Reservation held, JsonNode done) {
        TokenUsage u = RealtimeUsage.of(done).orElse(TokenUsage.NONE);
        String priced = model == null || model.isBlank() ? "unknown" : model;
        Optional<Long> cost = pricing.costMicros(owner.route().provider(), WireFormat.OPENAI_REALTIME, priced, u);
        UsageLedger.Usage usage = new UsageLedger.Usage(owner.orgId(), owner.projectId(), owner.sandboxId(),
                owner.route().provider(), priced, TokenBuckets.of(u), cost.orElse(null), true, null);
        if (held != null) {
            reservations.settle(held, usage);
        } else {
            ledger.record(usage);
        }
        Map<String, Object> d = details(owner);
        RealtimeUsage.responseId(done).ifPresent(id -> d.put("responseId", id));
        RealtimeUsage.status(done).ifPresent(s -> d.put("responseStatus", s.wire()));
        d.put("inputTokens", u.totalInputTokens());
        d.put("outputTokens", u.outputTokens());
        cost.ifPresentOrElse(c -> d.put("costMicros", c), () -> d.put("unpriced", true));
        append(owner, AuditOutcome.SUCCESS, "realtime-response", priced, d);
    }

    /**
     * A response cut off by the session's end before its {@code response.done}: nothing says what it used, so it
     * is charged what was held for it (as an unreadable HTTP answer is), never zero.
     */
    void settleCut(RealtimeSession.Owner owner, @Nullable String model, Reservation held) {
        String priced = model == null || model.isBlank() ? "unknown" : model;
        reservations.settle(held, new UsageLedger.Usage(owner.orgId(), owner.projectId(), owner.sandboxId(),
                owner.route().provider(), priced, TokenBuckets.NONE, held.heldMicros(), true, null));
        Map<String, Object> d = details(owner);
        d.put("streamTruncated", true);
        d.put("costMicros", held.heldMicros());
        append(owner, AuditOutcome.ERROR, "realtime-response", priced, d);
    }

    void release(Reservation held) {
        reservations.release(held);
    }

    /** A refusal, at the handshake or of one response: recorded with what the caller was refused. */
    void refused(RealtimeSession.Owner owner, @Nullable String model, ApiProblem problem) {
        Map<String, Object> d = details(owner);
        d.put("problem", problem.code().slug());
        d.put("detail", problem.detail());
        append(owner, AuditOutcome.DENIED, "realtime", model, d);
    }

    /** The session was closed by a halt of its organization. */
    void halted(RealtimeSession.Owner owner, @Nullable String model) {
        Map<String, Object> d = details(owner);
        d.put("closedBy", "halt");
        append(owner, AuditOutcome.CANCELLED, "realtime", model, d);
    }

    private static Map<String, Object> details(RealtimeSession.Owner owner) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("provider", owner.route().provider().wire());
        d.put("route", owner.route().prefix());
        if (owner.sandboxId() != null) {
            d.put("sandboxId", owner.sandboxId().toString());
        }
        if (owner.keySource() != null) {
            d.put("keySource", owner.keySource().slug());
        }
        d.put("piiMaskingSkipped", true); // spec: realtime voice sessions are never masked
        return d;
    }

    private void append(RealtimeSession.Owner owner, AuditOutcome outcome, String action, @Nullable String model,
                        Map<String, Object> d) {
        audit.append(AuditEvent.of(AuditKind.INFERENCE, action).org(owner.orgId()).project(owner.projectId())
                .outcome(outcome).by(owner.caller()).target(model).details(d).build());
    }
}
