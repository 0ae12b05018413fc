package dev.stockade.pii;

/** What the proxy does with a request whose masking failed; decided by {@link MaskingSettings#onFailure}. */
public enum FailureAction {
    /** Send the original body and record the request as {@code piiMaskingSkipped}. */
    SEND_UNMASKED,
    /** Do not send; answer 503 (a dead worker, or any failure while failing closed). */
    REFUSE_503
}
