package dev.stockade.policy.compiler;

import java.util.List;

/**
 * What the projects asked for and did not get because of the organization ceiling (spec "Drift report").
 * Empty without a ceiling.
 */
public record DriftReport(List<NarrowedDomain> narrowedDomains, List<BlockedDomain> blockedDomainDetails) {

    /** Copies both lists, so the report stays immutable. */
    public DriftReport {
        narrowedDomains = List.copyOf(narrowedDomains);
        blockedDomainDetails = List.copyOf(blockedDomainDetails);
    }

    /** No drift. */
    public static DriftReport empty() {
        return new DriftReport(List.of(), List.of());
    }

    /** Whether nothing was narrowed or blocked. */
    public boolean isEmpty() {
        return narrowedDomains.isEmpty() && blockedDomainDetails.isEmpty();
    }
}
