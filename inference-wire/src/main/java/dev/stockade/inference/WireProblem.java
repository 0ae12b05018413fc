package dev.stockade.inference;

/** Why a request body was refused before it was forwarded; each has a stable code the proxy can answer with. */
public enum WireProblem {
    /** The body is larger than {@link WireLimits#maxBodyBytes()}. */
    BODY_TOO_LARGE("body-too-large"),
    /** The body is not one JSON object (or repeats a key, which two readers could resolve differently). */
    MALFORMED_JSON("malformed-json"),
    /** A field the meter relies on has the wrong type or a negative value. */
    INVALID_FIELD("invalid-field");

    private final String code;

    WireProblem(String code) {
        this.code = code;
    }

    /** The stable slug, e.g. {@code body-too-large}. */
    public String code() {
        return code;
    }
}
