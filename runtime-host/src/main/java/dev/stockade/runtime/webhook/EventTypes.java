package dev.stockade.runtime.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.Function;

/** Event type resolution in runtime.md's order: X-GitHub-Event, X-GitLab-Event, {@code event_type}, unknown. */
public final class EventTypes {
    /** The type of an event nothing names. */
    public static final String UNKNOWN = "unknown";

    private EventTypes() {
    }

    /** Resolves the type from {@code header} (a case-insensitive header lookup) and the payload. */
    public static String resolve(Function<String, String> header, JsonNode payload) {
        String github = header.apply("X-GitHub-Event");
        if (github != null && !github.isBlank()) {
            return github.strip();
        }
        String gitlab = header.apply("X-GitLab-Event");
        if (gitlab != null && !gitlab.isBlank()) {
            return gitlab.strip();
        }
        JsonNode type = payload.get("event_type");
        if (type != null && type.isValueNode() && !type.isNull() && !type.asText().isBlank()) {
            return type.asText().strip();
        }
        return UNKNOWN;
    }
}
