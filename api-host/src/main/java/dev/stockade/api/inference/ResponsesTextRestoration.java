package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.pii.Restorer;
import dev.stockade.pii.StreamRestorer;
import dev.stockade.pii.TextForm;
import dev.stockade.pii.WireFormat;
import io.micronaut.core.annotation.Nullable;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The texts of one OpenAI Responses stream restored across its events. Every {@code *.delta} event with a string
 * {@code delta} (output text, refusal, reasoning, reasoning summary, function-call arguments) goes through the
 * {@link StreamRestorer} of its part, the part being named by the event's kind and its {@code item_id},
 * {@code output_index}, {@code content_index} and {@code summary_index}. Arguments (of a function or an MCP call)
 * are JSON source text, so their values go in JSON-escaped. What a restorer still holds when its part
 * ends goes in an extra delta of that part sent just before the event that ended it. The events that repeat a whole
 * text ({@code *.done}, {@code response.content_part.done}, {@code response.output_item.done},
 * {@code response.completed}) are restored in every string. Not thread-safe: one per stream.
 */
final class ResponsesTextRestoration {
    private static final String DELTA = ".delta";
    private static final String DONE = ".done";

    /** One streamed text: its kind (the event type without {@code .delta}) and where it sits in the response. */
    private record Part(String kind, String itemId, int output, int content, int summary) {
        static Part of(String kind, JsonNode event) {
            return new Part(kind, event.path("item_id").asText(""), event.path("output_index").asInt(-1),
                    event.path("content_index").asInt(-1), event.path("summary_index").asInt(-1));
        }
    }

    /** An open part's restorer, and its last delta event: the shape of the extra delta that flushes it. */
    private record Open(StreamRestorer restorer, ObjectNode lastDelta) {
    }

    private final Restorer restorer;
    private final Map<Part, Open> open = new LinkedHashMap<>();

    ResponsesTextRestoration(Restorer restorer) {
        this.restorer = restorer;
    }

    /**
     * The event restored: its new form, or null when it is unchanged. The extra deltas that flush the parts this
     * event ends are added to {@code before}.
     */
    @Nullable ObjectNode event(ObjectNode node, List<ObjectNode> before) {
        String type = node.path("type").asText();
        if (type.endsWith(DELTA) && node.path("delta").isTextual()) {
            return delta(type.substring(0, type.length() - DELTA.length()), node);
        }
        close(type, node, before);
        return EventJson.restoredStrings(restorer, node, WireFormat.OPENAI_RESPONSES);
    }

    private @Nullable ObjectNode delta(String kind, ObjectNode node) {
        String text = node.get("delta").asText();
        Part part = Part.of(kind, node);
        Open was = open.get(part);
        StreamRestorer stream = was == null ? restorer.stream(form(kind)) : was.restorer();
        open.put(part, new Open(stream, node.deepCopy()));
        String got = stream.push(text);
        if (got.equals(text)) {
            return null;
        }
        node.put("delta", got);
        return node;
    }

    /** {@code response.function_call_arguments} and {@code response.mcp_call_arguments} stream JSON source text. */
    private static TextForm form(String kind) {
        return kind.endsWith("_arguments") ? TextForm.JSON : TextForm.PLAIN;
    }

    /** Flushes every open part {@code type} ends: its own {@code .done}, its content part, its item, the response. */
    private void close(String type, ObjectNode node, List<ObjectNode> before) {
        for (Iterator<Map.Entry<Part, Open>> it = open.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Part, Open> e = it.next();
            if (!ends(type, node, e.getKey())) {
                continue;
            }
            it.remove();
            String rest = e.getValue().restorer().finish();
            if (!rest.isEmpty()) {
                before.add(flush(e.getValue().lastDelta(), rest, node));
            }
        }
    }

    private static boolean ends(String type, JsonNode node, Part part) {
        int output = node.path("output_index").asInt(-1);
        return switch (type) {
            case "response.completed", "response.incomplete", "response.failed" -> true;
            case "response.output_item.done" -> part.output() == output;
            case "response.content_part.done" -> part.output() == output
                    && part.content() == node.path("content_index").asInt(-1);
            default -> type.endsWith(DONE) && part.equals(
                    Part.of(type.substring(0, type.length() - DONE.length()), node));
        };
    }

    /**
     * The extra delta: a copy of the part's last delta with the held text, numbered as the event that ends the part
     * (sequence numbers then never go back), and without the last delta's log probabilities, which were its own.
     */
    private static ObjectNode flush(ObjectNode lastDelta, String rest, JsonNode ending) {
        ObjectNode extra = lastDelta.deepCopy().put("delta", rest);
        if (ending.has("sequence_number")) {
            extra.set("sequence_number", ending.get("sequence_number"));
        }
        if (extra.has("logprobs")) {
            extra.putArray("logprobs");
        }
        return extra;
    }
}
