package dev.stockade.policy.impact;

/**
 * The trail holds more entries than the replay's cap: refused as a whole, since a report of a prefix could miss what
 * breaks. The message says the cap and how to narrow.
 */
public final class ReplayCapExceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ReplayCapExceeded(long cap) {
        super("the window holds more than " + cap + " entries: narrow it with a later start or one project");
    }
}
