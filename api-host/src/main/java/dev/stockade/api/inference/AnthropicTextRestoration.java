package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.pii.Restorer;
import dev.stockade.pii.StreamRestorer;
import io.micronaut.core.annotation.Nullable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The text of one Anthropic Messages stream restored across its events. A model writes a placeholder in pieces, so
 * each content block's {@code text_delta}s go through the block's own {@link StreamRestorer}, and what it still
 * holds at the block's {@code content_block_stop} goes in an extra {@code content_block_delta} before it. Server-sent
 * events and Bedrock's InvokeModelWithResponseStream chunks carry the same events, so both use it. Not thread-safe:
 * one per stream.
 */
final class AnthropicTextRestoration {
    private final Restorer restorer;
    /** Open text blocks by index. */
    private final Map<Integer, StreamRestorer> open = new HashMap<>();

    AnthropicTextRestoration(Restorer restorer) {
        this.restorer = restorer;
    }

    /**
     * The event restored: its new form, or null when it is unchanged. Events to send before it (the text a block's
     * restorer held back when the block stops) are added to {@code before}.
     */
    @Nullable ObjectNode event(ObjectNode node, List<ObjectNode> before) {
        String type = node.path("type").asText();
        int index = node.path("index").asInt(-1);
        if (type.equals("content_block_delta") && node.path("delta").path("type").asText().equals("text_delta")) {
            ObjectNode delta = (ObjectNode) node.get("delta");
            String text = delta.path("text").asText();
            String got = open.computeIfAbsent(index, i -> restorer.stream()).push(text);
            if (got.equals(text)) {
                return null;
            }
            delta.put("text", got);
            return node;
        }
        if (type.equals("content_block_stop")) {
            StreamRestorer ending = open.remove(index);
            String rest = ending == null ? "" : ending.finish();
            if (!rest.isEmpty()) {
                ObjectNode extra = EventJson.object().put("type", "content_block_delta").put("index", index);
                extra.putObject("delta").put("type", "text_delta").put("text", rest);
                before.add(extra);
            }
        }
        return null;
    }
}
