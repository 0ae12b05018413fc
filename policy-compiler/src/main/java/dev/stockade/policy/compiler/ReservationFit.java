package dev.stockade.policy.compiler;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The reservation judgement: does a call's largest possible cost fit every limit that applies, given the spend
 * counted and the budget held by calls in flight? The host locks and reads the state and holds the budget; the rule
 * is here so that every host and every test judges alike.
 *
 * @param fits    whether the budget may be held and the call forwarded
 * @param reason  why, as a stable code
 * @param refused every limit the call does not fit, in the order given (empty when it fits)
 */
public record ReservationFit(boolean fits, Reason reason, List<Shortfall> refused) {

    /** Why a reservation fits or not. */
    public enum Reason {
        /** The call has no price (cost zero): unpriced spend does not count toward limits, so none is judged. */
        UNPRICED("unpriced"),
        /** No limit applies: nothing caps the caller's spend. */
        NO_LIMIT("no-limit"),
        /** Every limit has room for spend + holds + the call's cost. */
        WITHIN_LIMITS("within-limits"),
        /** At least one limit has no room for the call's cost. */
        DOES_NOT_FIT("does-not-fit");

        private final String code;

        Reason(String code) {
            this.code = code;
        }

        /** The stable code. */
        public String code() {
            return code;
        }
    }

    /**
     * A limit the call does not fit and by how much.
     *
     * @param limit     the limit, its spend and its holds
     * @param overMicros spend + holds + cost − amount, always above zero; {@link Long#MAX_VALUE} when the excess is
     *                   beyond what a long counts
     */
    public record Shortfall(HeldSpend limit, long overMicros) {
        /** Requires the limit and a positive overrun: a limit that is not exceeded is no shortfall. */
        public Shortfall {
            Objects.requireNonNull(limit, "limit");
            if (overMicros <= 0) {
                throw new IllegalArgumentException("a shortfall is above zero, was " + overMicros);
            }
        }
    }

    /** Checks that {@code fits}, {@code reason} and {@code refused} agree, so no answer says two things. */
    public ReservationFit {
        Objects.requireNonNull(reason, "reason");
        refused = List.copyOf(refused);
        if (fits != refused.isEmpty() || fits == (reason == Reason.DOES_NOT_FIT)) {
            throw new IllegalArgumentException("a reservation fits exactly when no limit refuses it");
        }
    }

    /**
     * Whether the answer for a call of {@code costMicros} depends on the limits at all: an unpriced call fits
     * whatever they hold, so a host may skip reading and locking them.
     */
    public static boolean dependsOnLimits(long costMicros) {
        return costMicros > 0;
    }

    /**
     * Judges {@code request}: it fits when, for every limit, spend + holds + cost does not exceed the amount, so a
     * reservation may take the budget to the last micro-USD and a zero amount admits no priced call. Every limit
     * counts: the answer names each one refused, not the first.
     */
    public static ReservationFit judge(ReservationRequest request) {
        Objects.requireNonNull(request, "request");
        if (!dependsOnLimits(request.costMicros())) {
            return new ReservationFit(true, Reason.UNPRICED, List.of());
        }
        if (request.limits().isEmpty()) {
            return new ReservationFit(true, Reason.NO_LIMIT, List.of());
        }
        List<Shortfall> refused = new ArrayList<>();
        for (HeldSpend limit : request.limits()) {
            long over = over(limit, request.costMicros());
            if (over > 0) {
                refused.add(new Shortfall(limit, over));
            }
        }
        return refused.isEmpty() ? new ReservationFit(true, Reason.WITHIN_LIMITS, List.of())
                : new ReservationFit(false, Reason.DOES_NOT_FIT, refused);
    }

    /** Spend + holds + cost − amount, exact up to a long; an excess beyond a long never wraps around into room. */
    private static long over(HeldSpend held, long costMicros) {
        // INVARIANT: every amount is at least zero (HeldSpend, ReservationRequest), so spend − amount cannot overflow
        // and adding the holds and the cost can only overflow upward, past an excess a long cannot count
        long over = held.limit().spentMicros() - held.limit().limitMicros();
        try {
            return Math.addExact(Math.addExact(over, held.heldMicros()), costMicros);
        } catch (ArithmeticException beyondALong) {
            return Long.MAX_VALUE;
        }
    }
}
