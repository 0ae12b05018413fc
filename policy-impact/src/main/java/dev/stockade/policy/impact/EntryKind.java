package dev.stockade.policy.impact;

/** Which kind of recorded decision an entry is: the two the policy decides, with the audit trail's slugs. */
public enum EntryKind {
    /** A proxy decision about a connection or an intercepted request (audit kind {@code egress}). */
    EGRESS("egress"),
    /** A call of a connector tool (audit kind {@code tool-call}). */
    TOOL_CALL("tool-call");

    private final String slug;

    EntryKind(String slug) {
        this.slug = slug;
    }

    /** The audit trail's name of the kind. */
    public String slug() {
        return slug;
    }

    /** The kind whose slug is {@code slug}, or {@code null} for any other audit kind. */
    public static EntryKind fromSlug(String slug) {
        for (EntryKind k : values()) {
            if (k.slug.equals(slug)) {
                return k;
            }
        }
        return null;
    }
}
