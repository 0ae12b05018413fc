package dev.stockade.pii;

import java.util.Locale;

/**
 * A kind of personal data the engine finds; the names are the policy's {@code piiMasking.types} values, so a
 * host maps a policy's list onto these by name.
 */
public enum PiiType {
    EMAIL,
    PHONE,
    CREDIT_CARD,
    /** Named-entity detected people's names. */
    PERSON,
    /** Numbered street lines. */
    ADDRESS,
    /** Named-entity detected places: other street lines, cities, regions, countries. */
    LOCATION;

    /** The type a policy names {@code name}, or an error naming the accepted values. */
    public static PiiType fromPolicy(String name) {
        if (name != null) {
            for (PiiType t : values()) {
                if (t.name().equals(name.trim().toUpperCase(Locale.ROOT))) {
                    return t;
                }
            }
        }
        throw new IllegalArgumentException("unknown masking type `" + name + "`, expected one of "
                + java.util.Arrays.toString(values()));
    }
}
