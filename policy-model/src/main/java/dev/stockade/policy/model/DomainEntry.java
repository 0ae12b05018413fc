package dev.stockade.policy.model;

import java.util.List;

/**
 * An element of {@code allowedDomains} (spec "Domain entry"). {@code null} components were absent.
 * {@code binaries == null} matches any caller; an empty list is rejected by validation.
 */
public record DomainEntry(
        String pattern,
        Verdict verdict,
        Transport transport,
        String scheme,
        String description,
        List<Rule> rules,
        List<String> binaries) {

    /** Copies the rules and binaries (absent stays {@code null}), so the entry stays immutable. */
    public DomainEntry {
        rules = Lists.copyOrNull(rules);
        binaries = Lists.copyOrNull(binaries);
    }

    /** An allow entry routed upstream with no fences. */
    public static DomainEntry allow(String pattern) {
        return new DomainEntry(pattern, Verdict.ALLOW, Transport.UPSTREAM, null, null, null, null);
    }

    /** A deny entry. */
    public static DomainEntry deny(String pattern) {
        return new DomainEntry(pattern, Verdict.DENY, null, null, null, null, null);
    }

    /** The transport of an allowed connection; upstream when absent. Meaningless on a deny entry. */
    public Transport effectiveTransport() {
        return transport == null ? Transport.UPSTREAM : transport;
    }

    /** Whether the entry carries a caller fence. */
    public boolean fenced() {
        return binaries != null;
    }

    /** Whether the entry narrows the domain to specific requests. */
    public boolean hasRules() {
        return rules != null && !rules.isEmpty();
    }

    /** A copy of this entry with {@code value} as its rules. */
    public DomainEntry withRules(List<Rule> value) {
        return new DomainEntry(pattern, verdict, transport, scheme, description, value, binaries);
    }

    /** A copy of this entry with {@code value} as its binaries. */
    public DomainEntry withBinaries(List<String> value) {
        return new DomainEntry(pattern, verdict, transport, scheme, description, rules, value);
    }
}
