package dev.stockade.policy.compiler;

import java.util.List;
import java.util.Objects;

/**
 * The question a host asks before it forwards a metered model call: may budget for the call's largest possible cost
 * be held under every limit that applies? One parameter object, so that the rule's signature stays stable.
 *
 * @param costMicros the call's largest possible cost in micro-USD; zero for a model without a price
 * @param limits     every limit that applies to the caller, with its spend and holds, in the host's order
 */
public record ReservationRequest(long costMicros, List<HeldSpend> limits) {

    /** Refuses a negative cost and copies the limits, so the request stays immutable. */
    public ReservationRequest {
        if (costMicros < 0) {
            throw new IllegalArgumentException("a reservation's cost must not be negative, was " + costMicros);
        }
        limits = List.copyOf(Objects.requireNonNull(limits, "limits"));
    }
}
