package dev.stockade.policy.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Defensive copies that keep the absent/empty distinction and key order. */
final class Lists {
    private Lists() {
    }

    static <T> List<T> copyOrNull(List<T> list) {
        return list == null ? null : List.copyOf(list);
    }

    static <V> Map<String, V> copyOrNull(Map<String, V> map) {
        return map == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
