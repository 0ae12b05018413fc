package dev.stockade.inference;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The upstream response headers the meter reads, by case-insensitive name; an interface so a host adapts its
 * own header type without copying.
 */
@FunctionalInterface
public interface ResponseHeaders {

    /** No headers. */
    ResponseHeaders NONE = name -> Optional.empty();

    /** The first value of header {@code name}, matched without regard to case. */
    Optional<String> first(String name);

    /** Headers from a map of single values. */
    static ResponseHeaders of(Map<String, String> values) {
        TreeMap<String, String> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        byName.putAll(values);
        return name -> Optional.ofNullable(byName.get(name.toLowerCase(Locale.ROOT)));
    }
}
