package dev.stockade.policy.impact;

/** What the candidate does to one recorded decision. */
public enum Change {
    /** Recorded as allowed, denied under the candidate: something that works today would break. */
    NEWLY_DENIED("newly-denied"),
    /** Recorded as denied, allowed under the candidate: something would open. */
    NEWLY_ALLOWED("newly-allowed"),
    /** The same verdict as recorded. */
    UNCHANGED("unchanged");

    private final String code;

    Change(String code) {
        this.code = code;
    }

    /** The stable code. */
    public String code() {
        return code;
    }
}
