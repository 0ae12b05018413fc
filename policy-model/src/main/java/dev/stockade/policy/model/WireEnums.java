package dev.stockade.policy.model;

import java.util.function.Function;

/** Lookup of a closed set by its wire text; exact and case-sensitive, like the schema. */
final class WireEnums {
    private WireEnums() {
    }

    static <E> E lookup(E[] values, Function<E, String> wire, String text) {
        if (text == null) {
            return null;
        }
        for (E value : values) {
            if (wire.apply(value).equals(text)) {
                return value;
            }
        }
        return null;
    }
}
