package dev.stockade.runtime.observe;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One attribute that may leave the runtime in a telemetry record: a flag, a count or an identifier. Free text
 * (message content, URLs, paths, credentials, names) has no kind here, so it cannot be exported.
 */
sealed interface TelemetryAttribute {
    Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    Pattern NAME = Pattern.compile("[a-z][a-z_.]{0,63}");

    String key();

    /** A yes/no fact, such as whether a run was delivered only. */
    record Flag(String key, boolean value) implements TelemetryAttribute {
    }

    /** A count, such as the tool calls of a turn. */
    record Count(String key, long value) implements TelemetryAttribute {
    }

    /** An identifier in canonical lower-case UUID form, such as a run id. */
    record Id(String key, String value) implements TelemetryAttribute {
    }

    /** The attribute {@code key = value} if both are allowed; empty for any other name or value. */
    static Optional<TelemetryAttribute> of(Object key, Object value) {
        String k = String.valueOf(key);
        if (!NAME.matcher(k).matches()) {
            return Optional.empty();
        }
        if (value instanceof Boolean b) {
            return Optional.of(new Flag(k, b));
        }
        if (value instanceof Integer || value instanceof Long) {
            return Optional.of(new Count(k, ((Number) value).longValue()));
        }
        if (value instanceof String s && UUID.matcher(s).matches()) {
            return Optional.of(new Id(k, s));
        }
        return Optional.empty();
    }
}
