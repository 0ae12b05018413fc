package dev.stockade.policy.model;

/**
 * A PII masking type. The spec names six and says the complete list is not shown; Stockade supports
 * exactly these, and postal codes are deliberately not a type (see docs/policy-reference.md).
 */
public enum MaskingType {
    /** Email addresses. */
    EMAIL,
    /** Phone numbers. */
    PHONE,
    /** Payment card numbers. */
    CREDIT_CARD,
    /** Names of people. */
    PERSON,
    /** Numbered street lines. */
    ADDRESS,
    /** Named-entity detected: other street lines, cities, regions. */
    LOCATION;

    /** The value as written in a policy document. */
    public String wire() {
        return name();
    }

    /** The masking type written as {@code text}, or {@code null} if the text names none. */
    public static MaskingType fromWire(String text) {
        return WireEnums.lookup(values(), MaskingType::wire, text);
    }
}
