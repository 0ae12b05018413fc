package dev.stockade.policy.compiler;

import java.util.List;

/**
 * The spend admission judgement: may a metered model call go ahead, given every limit that applies to its caller
 * (organization, project, sandbox) and the spend counted against each? The host keeps the ledger and passes the state
 * in; the rule is here so that every host and every test judges alike.
 *
 * @param allowed    whether the call may go ahead
 * @param reason     why, as a stable code
 * @param applicable every limit that applies, in the order given
 * @param reached    the limits that refuse the call, in the order given (empty when allowed)
 */
public record SpendDecision(boolean allowed, Reason reason, List<SpendLimit> applicable, List<SpendLimit> reached) {

    /** Why a call was admitted or refused. */
    public enum Reason {
        /** No limit applies: nothing caps the caller's spend. */
        NO_LIMIT("no-limit"),
        /** Limits apply and each has spend left. */
        WITHIN_LIMITS("within-limits"),
        /** At least one limit's spend has reached its cap. */
        LIMIT_REACHED("limit-reached");

        private final String code;

        Reason(String code) {
            this.code = code;
        }

        /** The stable code. */
        public String code() {
            return code;
        }
    }

    /** Copies both lists, so the decision stays immutable. */
    public SpendDecision {
        applicable = List.copyOf(applicable);
        reached = List.copyOf(reached);
    }

    /**
     * Judges a call against {@code applicable} (null: none): allowed unless a limit is reached; every limit counts,
     * so the refusal names each one reached rather than the first.
     */
    public static SpendDecision judge(List<SpendLimit> applicable) {
        List<SpendLimit> all = applicable == null ? List.of() : List.copyOf(applicable);
        List<SpendLimit> reached = all.stream().filter(SpendLimit::reached).toList();
        Reason reason = all.isEmpty() ? Reason.NO_LIMIT : reached.isEmpty() ? Reason.WITHIN_LIMITS
                : Reason.LIMIT_REACHED;
        return new SpendDecision(reached.isEmpty(), reason, all, reached);
    }
}
