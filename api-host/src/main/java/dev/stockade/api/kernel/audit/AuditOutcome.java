package dev.stockade.api.kernel.audit;

import dev.stockade.api.kernel.Slugged;

/** How the audited operation ended, as the trail stores it and {@code ?outcome=} filters it. */
public enum AuditOutcome implements Slugged {
    SUCCESS,
    /** Refused: by authorization, policy, or a halt before it began. */
    DENIED,
    /** Began and failed. */
    ERROR,
    /** Stopped in flight (a halt). */
    CANCELLED;
}
