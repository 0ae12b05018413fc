package dev.stockade.api.impact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * Reads a tool call made with a sandbox's token as the sandbox's own: the entry's actor becomes the sandbox, so that a
 * suggestion narrowed to a sandbox keeps its connector tool calls with its egress (the trail records the token, whose
 * id is not the sandbox's). A token of no sandbox, or of one deleted since, stays as recorded. Each token is looked up
 * once.
 */
final class SandboxCallers {
    private final Function<UUID, Optional<UUID>> sandboxOfToken;
    private final Map<UUID, Optional<UUID>> known = new HashMap<>();

    SandboxCallers(Function<UUID, Optional<UUID>> sandboxOfToken) {
        this.sandboxOfToken = sandboxOfToken;
    }

    /** {@code entry}, its actor replaced by the sandbox when a sandbox's token acted. */
    ObjectNode attributed(ObjectNode entry) {
        JsonNode actor = entry.path("actor");
        if (!(actor instanceof ObjectNode a) || !"sandbox-token".equals(a.path("type").asText())) {
            return entry;
        }
        UUID token;
        try {
            token = UUID.fromString(a.path("id").asText());
        } catch (IllegalArgumentException e) {
            return entry;
        }
        known.computeIfAbsent(token, sandboxOfToken).ifPresent(id -> a.put("type", "sandbox").put("id", id.toString()));
        return entry;
    }
}
