package dev.stockade.policy.impact;

import dev.stockade.policy.model.Policy;
import java.time.Instant;
import java.util.List;

/**
 * The least-privilege policy suggested from a window of the trail, with what it was made from: the counts say how
 * much of the window it rests on, so that a reader can tell a policy drawn from three requests from one drawn from a
 * week.
 *
 * @param policy        the suggested policy: default deny, one allow entry per observed endpoint or wildcard, the
 *                      connector tools called
 * @param firstSeen     the earliest entry read, {@code null} for an empty window
 * @param lastSeen      the latest entry read, {@code null} for an empty window
 * @param entries       entries read
 * @param used          allowed egress decisions and connector tool calls the policy admits
 * @param denied        entries recorded as denied (a suggestion never opens them)
 * @param notUsable     entries that are not a policy's allow: the proxy's or platform's own verdicts, platform tools,
 *                      entries missing fields, other kinds
 * @param otherSandbox  entries of other sandboxes or callers, when one was asked for
 * @param unnamedHosts  allowed hosts no pattern can name (refused by the host grammar), left out of the policy
 * @param wildcards     the host wildcards made, each with the hosts it stands for
 */
public record Suggestion(Policy policy, Instant firstSeen, Instant lastSeen, long entries, long used, long denied,
        long notUsable, long otherSandbox, List<String> unnamedHosts, List<MadeWildcard> wildcards) {
    public Suggestion {
        unnamedHosts = List.copyOf(unnamedHosts);
        wildcards = List.copyOf(wildcards);
    }

    /** A host wildcard the rule made: its pattern and the observed hosts that justified it. */
    public record MadeWildcard(String pattern, List<String> hosts) {
        public MadeWildcard {
            hosts = List.copyOf(hosts);
        }
    }
}
