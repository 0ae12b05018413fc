package dev.stockade.policy.eval;

import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;

/**
 * The answer to one egress request, with what decided it.
 *
 * @param verdict    allow or deny
 * @param transport  how an allowed request leaves; {@code null} on a deny
 * @param intercept  on a connection-level allow: whether the proxy must terminate TLS and decide each
 *                   request (upstream transport); false for direct transport
 * @param reason     stable reason code, for audit lines and deny responses
 * @param policy     name of the policy whose entry decided, {@code null} when the default decided
 * @param entryIndex index of the deciding entry in that policy's {@code allowedDomains}, -1 if none
 * @param ruleIndex  index of the deciding rule in that entry's {@code rules}, -1 if none
 * @param detail     one-line human reason, lower case, no trailing period
 */
public record Decision(
        Verdict verdict,
        Transport transport,
        boolean intercept,
        ReasonCode reason,
        String policy,
        int entryIndex,
        int ruleIndex,
        String detail) {

    /** Whether the request may go out. */
    public boolean allowed() {
        return verdict == Verdict.ALLOW;
    }

    /** A deny that no entry decided (fail closed: bad input, internal error, halt). */
    public static Decision deny(ReasonCode reason, String detail) {
        return new Decision(Verdict.DENY, null, false, reason, null, -1, -1, detail);
    }
}
