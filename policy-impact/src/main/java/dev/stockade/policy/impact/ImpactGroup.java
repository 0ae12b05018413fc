package dev.stockade.policy.impact;

import java.time.Instant;

/**
 * Recorded decisions that the candidate changes the same way, on the same sandbox, target and operation, with how
 * many and when first and last seen; the candidate's reason is that of the first entry of the group.
 *
 * @param change          what the candidate does to them
 * @param kind            egress or tool call
 * @param sandbox         the sandbox (egress) or caller (tool call)
 * @param target          {@code host:port}, or the connector id of a tool call
 * @param operation       {@code METHOD path}, {@code (connection)}, or the connector's tool name
 * @param count           how many recorded entries
 * @param firstSeen       the earliest entry's time
 * @param lastSeen        the latest entry's time
 * @param recordedReason  the reason recorded with the first entry
 * @param candidateReason the reason code under the candidate
 * @param candidatePolicy the policy whose entry decided under the candidate, {@code null} when the default did
 * @param candidateEntry  that policy's entry index, -1 if none
 */
public record ImpactGroup(Change change, EntryKind kind, String sandbox, String target, String operation, long count,
        Instant firstSeen, Instant lastSeen, String recordedReason, String candidateReason, String candidatePolicy,
        int candidateEntry) {
}
