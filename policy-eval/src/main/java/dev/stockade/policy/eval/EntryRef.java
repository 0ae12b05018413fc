package dev.stockade.policy.eval;

/**
 * Where a piece of the effective policy came from: entry {@code entryIndex} of the {@code allowedDomains}
 * of policy {@code policy}, which is either a grant or part of the organization ceiling.
 */
public record EntryRef(String policy, int entryIndex, boolean ceiling) {
}
