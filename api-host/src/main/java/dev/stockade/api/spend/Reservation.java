package dev.stockade.api.spend;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Budget held for one model call in flight, from before it is forwarded until it is settled or released: the hold
 * counts toward every limit of its organization, project and sandbox, so concurrent calls cannot all spend the same
 * remainder. A hold stops counting at {@code expiresAt}.
 *
 * @param sandboxId  null for a caller that is not a sandbox
 * @param heldMicros the call's largest possible cost, held against the limits
 */
public record Reservation(UUID id, UUID orgId, UUID projectId, @Nullable UUID sandboxId, long heldMicros,
                          Instant expiresAt) {

    public Reservation {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(orgId, "orgId");
        Objects.requireNonNull(projectId, "projectId");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** What {@link SpendReservations#reserve} answers: the call's hold, or why nothing is held. */
    public sealed interface Result permits Reserved, NotHeld {
        /** The reservation, or the refusal the {@code /llm/*} routes answer. */
        Reservation require();
    }

    /** Nothing is held, and the call must not be forwarded. */
    public sealed interface NotHeld extends Result permits Refused, Halted {
        /** The refusal the {@code /llm/*} routes answer. */
        ApiProblem problem();

        @Override
        default Reservation require() {
            throw problem();
        }
    }

    /**
     * The organization is halted: nothing is held. The reservation reads the halt in the same statement that holds
     * the budget, so a call admitted after a halt committed is refused without a read of its own.
     */
    public record Halted(UUID orgId) implements NotHeld {
        public Halted {
            Objects.requireNonNull(orgId, "orgId");
        }

        @Override
        public ApiProblem problem() {
            return new ApiProblem(ProblemCode.HALTED, "the organization is halted: model calls are stopped");
        }
    }

    /** The call fits every limit that applies (or none applies); its budget is held. */
    public record Reserved(Reservation reservation) implements Result {
        public Reserved {
            Objects.requireNonNull(reservation, "reservation");
        }

        @Override
        public Reservation require() {
            return reservation;
        }
    }

    /**
     * The call does not fit: nothing is held.
     *
     * @param reached every limit the call's largest possible cost does not fit, organization first
     * @param detail  the 429's detail, naming each limit reached and when its period ends
     */
    public record Refused(List<HeldLimit> reached, String detail) implements NotHeld {
        public Refused {
            reached = List.copyOf(reached);
            if (reached.isEmpty()) {
                throw new IllegalArgumentException("a refusal names at least one limit");
            }
        }

        /** The refusal of a call that may cost {@code costMicros}, over the limits it does not fit. */
        static Refused of(List<HeldLimit> reached, long costMicros) {
            return new Refused(reached, "spending limit reached: a call that may cost " + Money.usd(costMicros)
                    + " USD does not fit " + reached.stream().map(HeldLimit::describe).collect(Collectors.joining(", "))
                    + "; model access stops until calls in flight finish or the period ends, the sandbox keeps"
                    + " running");
        }

        /** The 429 the {@code /llm/*} routes answer. */
        @Override
        public ApiProblem problem() {
            return new ApiProblem(ProblemCode.SPENDING_LIMIT_REACHED, detail);
        }
    }
}
