package dev.stockade.api.spend;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.policy.compiler.SpendDecision;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * May this caller make a metered model call now? The hook of the {@code /llm/*} routes, which answer 429 when not.
 * Every limit that applies counts: the organization's, the project's and the sandbox's own cap. The state comes from
 * one indexed query (at most three limits joined to their period's counter, which {@link UsageLedger} moves in the
 * ledger row's transaction), so there is no cache to go stale; the verdict is the core's {@link SpendDecision#judge},
 * a pure function of that state.
 */
@Singleton
public class SpendAdmission {
    /**
     * The verdict and its reasons.
     *
     * @param reason     the core's reason for the verdict
     * @param applicable every limit that applies to the caller, organization first
     * @param reached    the limits that refuse the call (empty: allowed)
     */
    public record Admission(boolean allowed, SpendDecision.Reason reason, List<LimitState> applicable,
                            List<LimitState> reached) {
        /** Returns quietly when allowed; otherwise the 429 the {@code /llm/*} routes answer, naming each limit. */
        public void require() {
            if (allowed) {
                return;
            }
            throw new ApiProblem(ProblemCode.SPENDING_LIMIT_REACHED,
                    HeldLimit.refusal(reached.stream().map(l -> new HeldLimit(l, 0)).toList()));
        }
    }

    private final SpendingLimits limits;
    private final Clock clock;

    public SpendAdmission(SpendingLimits limits, Clock clock) {
        this.limits = limits;
        this.clock = clock;
    }

    /** The verdict for a call now by {@code sandboxId} (null: a caller that is not a sandbox) of the project. */
    public Admission check(UUID orgId, UUID projectId, @Nullable UUID sandboxId) {
        return check(orgId, projectId, sandboxId, clock.instant());
    }

    /** The verdict for a call at {@code now}. */
    public Admission check(UUID orgId, UUID projectId, @Nullable UUID sandboxId, Instant now) {
        return judge(limits.applicable(orgId, projectId, sandboxId, now));
    }

    /** The core's judgement ({@link SpendDecision#judge}) over the stored limits, its reached limits as rows. */
    public static Admission judge(List<LimitState> applicable) {
        SpendDecision d = SpendDecision.judge(applicable.stream().map(LimitState::limit).toList());
        List<LimitState> reached = applicable.stream().filter(l -> d.reached().contains(l.limit())).toList();
        return new Admission(d.allowed(), d.reason(), List.copyOf(applicable), reached);
    }
}
