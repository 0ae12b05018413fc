package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.pii.Restorer;
import dev.stockade.pii.StreamRestorer;
import dev.stockade.pii.TextForm;
import io.micronaut.core.annotation.Nullable;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The model text of one Chat Completions stream restored across its chunks: each choice's {@code delta.content}, and
 * each of its tool calls' {@code function.arguments} fragments (JSON source text, so a value goes in JSON-escaped),
 * through a {@link StreamRestorer} of their own. The chunk that finishes a choice ({@code finish_reason}) carries
 * what those restorers still hold: in its content, and in a tool call entry of the same index. Not thread-safe: one
 * per stream.
 */
final class ChatTextRestoration {
    /** One streamed text of a choice: its content ({@code toolCall} -1) or a tool call's arguments. */
    private record Part(int choice, int toolCall) {
    }

    private static final int CONTENT = -1;

    private final Restorer restorer;
    private final Map<Part, StreamRestorer> open = new LinkedHashMap<>();

    ChatTextRestoration(Restorer restorer) {
        this.restorer = restorer;
    }

    /** The chunk restored: its new form, or null when it is unchanged. */
    @Nullable ObjectNode chunk(ObjectNode node) {
        if (!node.path("choices").isArray()) {
            return null;
        }
        boolean changed = false;
        for (JsonNode choice : node.get("choices")) {
            if (choice instanceof ObjectNode c) {
                changed |= choice(c);
            }
        }
        return changed ? node : null;
    }

    private boolean choice(ObjectNode c) {
        int index = c.path("index").asInt(0);
        boolean changed = false;
        if (c.get("delta") instanceof ObjectNode delta) {
            changed = push(new Part(index, CONTENT), delta, "content", TextForm.PLAIN);
            if (delta.get("tool_calls") instanceof ArrayNode calls) {
                for (JsonNode call : calls) {
                    if (call instanceof ObjectNode o && o.get("function") instanceof ObjectNode f) {
                        changed |= push(new Part(index, o.path("index").asInt(0)), f, "arguments", TextForm.JSON);
                    }
                }
            }
        }
        return c.hasNonNull("finish_reason") ? finish(index, c) | changed : changed;
    }

    /** {@code holder.field} through its part's restorer; whether it changed. */
    private boolean push(Part part, ObjectNode holder, String field, TextForm form) {
        if (!holder.path(field).isTextual()) {
            return false;
        }
        String text = holder.get(field).asText();
        String got = open.computeIfAbsent(part, p -> restorer.stream(form)).push(text);
        if (got.equals(text)) {
            return false;
        }
        holder.put(field, got);
        return true;
    }

    /** Appends what the finished choice's restorers hold to its content and tool calls; whether any did. */
    private boolean finish(int index, ObjectNode c) {
        boolean changed = false;
        for (Iterator<Map.Entry<Part, StreamRestorer>> it = open.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Part, StreamRestorer> e = it.next();
            if (e.getKey().choice() != index) {
                continue;
            }
            it.remove();
            String rest = e.getValue().finish();
            if (rest.isEmpty()) {
                continue;
            }
            ObjectNode delta = c.get("delta") instanceof ObjectNode d ? d : c.putObject("delta");
            ObjectNode holder = e.getKey().toolCall() == CONTENT ? delta : toolCall(delta, e.getKey().toolCall());
            String field = e.getKey().toolCall() == CONTENT ? "content" : "arguments";
            holder.put(field, holder.path(field).asText("") + rest);
            changed = true;
        }
        return changed;
    }

    /** The {@code function} of the delta's tool call entry {@code index}, added when the chunk has none. */
    private static ObjectNode toolCall(ObjectNode delta, int index) {
        ArrayNode calls = delta.get("tool_calls") instanceof ArrayNode a ? a : delta.putArray("tool_calls");
        for (JsonNode call : calls) {
            if (call instanceof ObjectNode o && o.path("index").asInt(0) == index) {
                return o.get("function") instanceof ObjectNode f ? f : o.putObject("function");
            }
        }
        return calls.addObject().put("index", index).putObject("function");
    }
}
