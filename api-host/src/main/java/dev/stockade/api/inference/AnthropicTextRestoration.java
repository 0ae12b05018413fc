package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.pii.Restorer;
import dev.stockade.pii.StreamRestorer;
import dev.stockade.pii.TextForm;
import io.micronaut.core.annotation.Nullable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The model text of one Anthropic Messages stream restored across its events. A model writes a placeholder in pieces,
 * so each content block's deltas (text, or the tool input's JSON fragments) go through the block's own
 * {@link StreamRestorer}, and what it still holds when the block's text ends (at a text delta of another kind, or the
 * {@code content_block_stop}) goes in an extra {@code content_block_delta} of the block's kind before that event.
 * Thinking is signed, so its {@code thinking_delta}s pass as the backend sent them, placeholders included: a client
 * sends the block back, and its signature must hold and its text must not carry the caller's values (the masker
 * leaves signed blocks alone). Server-sent events and Bedrock's InvokeModelWithResponseStream chunks carry the same
 * events, so both use it. Not thread-safe: one per stream.
 */
final class AnthropicTextRestoration {
    /**
     * The deltas whose model text is restored: their {@code delta.type}, the field holding the text, its form.
     * {@code thinking_delta} is not one: signed text passes unrestored.
     */
    enum DeltaKind {
        TEXT("text_delta", "text", TextForm.PLAIN),
        /** Raw fragments of the tool input's JSON: a value goes in JSON-escaped. */
        INPUT_JSON("input_json_delta", "partial_json", TextForm.JSON);

        private final String type;
        private final String field;
        private final TextForm form;

        DeltaKind(String type, String field, TextForm form) {
            this.type = type;
            this.field = field;
            this.form = form;
        }

        static @Nullable DeltaKind of(String type) {
            for (DeltaKind k : values()) {
                if (k.type.equals(type)) {
                    return k;
                }
            }
            return null;
        }
    }

    /** An open block: its kind and restorer. */
    private record Open(DeltaKind kind, StreamRestorer restorer) {
    }

    private final Restorer restorer;
    /** Open blocks by index. */
    private final Map<Integer, Open> open = new HashMap<>();

    AnthropicTextRestoration(Restorer restorer) {
        this.restorer = restorer;
    }

    /**
     * The event restored: its new form, or null when it is unchanged. Events to send before it (the text a block's
     * restorer held back when the block's deltas end) are added to {@code before}.
     */
    @Nullable ObjectNode event(ObjectNode node, List<ObjectNode> before) {
        String type = node.path("type").asText();
        int index = node.path("index").asInt(-1);
        if (type.equals("content_block_stop")) {
            flush(index, before);
            return null;
        }
        if (!type.equals("content_block_delta") || !(node.get("delta") instanceof ObjectNode delta)) {
            return null;
        }
        DeltaKind kind = DeltaKind.of(delta.path("type").asText());
        if (kind == null || !delta.path(kind.field).isTextual()) {
            return null; // thinking, a signature, a citation: passed as sent, and none ends the block's text
        }
        Open was = open.get(index);
        if (was != null && kind != was.kind()) {
            flush(index, before); // the block's text has ended: text of another kind follows
        }
        StreamRestorer stream = open.computeIfAbsent(index, i -> new Open(kind, restorer.stream(kind.form)))
                .restorer();
        String text = delta.get(kind.field).asText();
        String got = stream.push(text);
        if (got.equals(text)) {
            return null;
        }
        delta.put(kind.field, got);
        return node;
    }

    private void flush(int index, List<ObjectNode> before) {
        Open ending = open.remove(index);
        String rest = ending == null ? "" : ending.restorer().finish();
        if (!rest.isEmpty()) {
            ObjectNode extra = EventJson.object().put("type", "content_block_delta").put("index", index);
            extra.putObject("delta").put("type", ending.kind().type).put(ending.kind().field, rest);
            before.add(extra);
        }
    }
}
