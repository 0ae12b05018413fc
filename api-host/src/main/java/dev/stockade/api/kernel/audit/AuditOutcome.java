package dev.stockade.api.kernel.audit;

/** How the audited operation ended, as the trail stores it and {@code ?outcome=} filters it. */
public enum AuditOutcome {
    SUCCESS("success"),
    /** Refused: by authorization, policy, or a halt before it began. */
    DENIED("denied"),
    /** Began and failed. */
    ERROR("error"),
    /** Stopped in flight (a halt). */
    CANCELLED("cancelled");

    private final String slug;

    AuditOutcome(String slug) {
        this.slug = slug;
    }

    public String slug() {
        return slug;
    }
}
