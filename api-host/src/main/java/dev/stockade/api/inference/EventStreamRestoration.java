package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.inference.WireFormat;
import dev.stockade.pii.Restorer;
import dev.stockade.pii.StreamRestorer;
import dev.stockade.pii.TextForm;
import io.micronaut.core.annotation.Nullable;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

/**
 * Restores placeholders in a Bedrock AWS event-stream answer, one frame at a time. InvokeModelWithResponseStream
 * carries Anthropic stream events base64-encoded in its {@code chunk} frames ({@link AnthropicTextRestoration});
 * ConverseStream carries each content block's text (or tool input's JSON fragments) in {@code contentBlockDelta}
 * frames, restored here with one {@link StreamRestorer} per block (the tool input's values go in JSON-escaped).
 * Reasoning is signed, so its frames pass as the backend wrote them, placeholders included. A changed frame is
 * encoded again with its headers unchanged (the library computes the CRCs); a frame whose text the restorer holds
 * back still goes out with what it released, so the stream never stalls, and the held text goes in an extra delta
 * frame before the block's stop. Other frames pass byte for byte.
 */
final class EventStreamRestoration implements RestoringBody.Stage {
    private static final String EVENT_TYPE = ":event-type";

    /** An open Converse block: its restorer, and its last delta frame (the shape of the frame that flushes it). */
    private record ConverseBlock(StreamRestorer restorer, Message lastDelta) {
    }

    /** Where a Converse delta's model text is: the object and field holding it, and the text's form. */
    private record TextAt(ObjectNode holder, String field, TextForm form) {
        String text() {
            return holder.get(field).asText();
        }
    }

    private final WireFormat format;
    private final Restorer restorer;
    private final EventStreamFrames frames = new EventStreamFrames();
    private final AnthropicTextRestoration anthropic;
    private final Map<Integer, ConverseBlock> blocks = new HashMap<>();

    EventStreamRestoration(WireFormat format, Restorer restorer) {
        this.format = format;
        this.restorer = restorer;
        this.anthropic = new AnthropicTextRestoration(restorer);
    }

    @Override
    public byte[] push(byte[] chunk) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(chunk.length + 64);
        for (EventStreamFrames.Piece piece : frames.push(chunk)) {
            if (piece.frame() == null) {
                out.writeBytes(piece.bytes());
                continue;
            }
            List<Message> before = new ArrayList<>();
            Message after = restored(piece.frame(), before);
            before.forEach(extra -> out.writeBytes(encode(extra)));
            out.writeBytes(after == null ? piece.bytes() : encode(after));
        }
        return out.toByteArray();
    }

    @Override
    public byte[] finish() {
        return frames.finish();
    }

    /** The frame restored, or null when unchanged; extra frames to send before it go to {@code before}. */
    private @Nullable Message restored(Message frame, List<Message> before) {
        HeaderValue type = frame.getHeaders().get(EVENT_TYPE);
        if (type == null) {
            return null; // an exception frame, or one that names no event
        }
        return switch (format) {
            case BEDROCK_INVOKE -> type.getString().equals("chunk") ? chunk(frame, before) : null;
            case BEDROCK_CONVERSE -> converse(type.getString(), frame, before);
            default -> null;
        };
    }

    /** An InvokeModelWithResponseStream {@code chunk}: {@code {"bytes": <base64 of an Anthropic event>}}. */
    private @Nullable Message chunk(Message frame, List<Message> before) {
        ObjectNode payload = EventJson.parse(frame.getPayload());
        ObjectNode event = payload == null || !payload.path("bytes").isTextual() ? null : decoded(payload);
        if (event == null) {
            return null;
        }
        List<ObjectNode> extras = new ArrayList<>();
        ObjectNode after = anthropic.event(event, extras);
        extras.forEach(extra -> before.add(new Message(frame.getHeaders(),
                json(EventJson.object().put("bytes", base64(extra))))));
        return after == null ? null : new Message(frame.getHeaders(), json(payload.put("bytes", base64(after))));
    }

    private static @Nullable ObjectNode decoded(ObjectNode payload) {
        try {
            return EventJson.parse(Base64.getDecoder().decode(payload.get("bytes").asText()));
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }

    /**
     * A ConverseStream frame: a {@code contentBlockDelta}'s text (or tool input) goes through its block's restorer;
     * a {@code contentBlockStop}, or the {@code messageStop} after the blocks, is preceded by a delta with what the
     * restorer still held.
     */
    private @Nullable Message converse(String type, Message frame, List<Message> before) {
        ObjectNode payload = EventJson.parse(frame.getPayload());
        if (payload == null) {
            return null;
        }
        int index = payload.path("contentBlockIndex").asInt(-1);
        switch (type) {
            case "contentBlockDelta" -> {
                return converseDelta(index, frame, payload);
            }
            case "contentBlockStop" -> flush(blocks.remove(index), before);
            case "messageStop" -> {
                blocks.values().forEach(open -> flush(open, before));
                blocks.clear();
            }
            default -> {
                // messageStart, contentBlockStart, metadata: no model text to restore
            }
        }
        return null;
    }

    private @Nullable Message converseDelta(int index, Message frame, ObjectNode payload) {
        TextAt at = textAt(payload);
        if (at == null) {
            return null; // reasoning (its text, signature or redacted content) is signed: it passes as sent
        }
        ConverseBlock was = blocks.get(index);
        StreamRestorer stream = was == null ? restorer.stream(at.form()) : was.restorer();
        blocks.put(index, new ConverseBlock(stream, frame));
        String text = at.text();
        String got = stream.push(text);
        if (got.equals(text)) {
            return null;
        }
        at.holder().put(at.field(), got);
        return new Message(frame.getHeaders(), json(payload));
    }

    /**
     * The delta's model text to restore: {@code delta.text} or the JSON fragment {@code delta.toolUse.input}; null for
     * a delta without one, and for {@code delta.reasoningContent}, whose text is signed.
     */
    private static @Nullable TextAt textAt(ObjectNode payload) {
        JsonNode delta = payload.path("delta");
        if (delta.path("text").isTextual()) {
            return new TextAt((ObjectNode) delta, "text", TextForm.PLAIN);
        }
        JsonNode toolUse = delta.path("toolUse");
        return toolUse.path("input").isTextual() ? new TextAt((ObjectNode) toolUse, "input", TextForm.JSON) : null;
    }

    private static void flush(@Nullable ConverseBlock open, List<Message> before) {
        String rest = open == null ? "" : open.restorer().finish();
        if (rest.isEmpty()) {
            return;
        }
        ObjectNode payload = EventJson.parse(open.lastDelta().getPayload());
        TextAt at = payload == null ? null : textAt(payload);
        if (at != null) { // INVARIANT: the last delta was read as JSON with a text when it was pushed
            at.holder().put(at.field(), rest);
            before.add(new Message(open.lastDelta().getHeaders(), json(payload)));
        }
    }

    private static String base64(ObjectNode event) {
        return Base64.getEncoder().encodeToString(json(event));
    }

    private static byte[] json(ObjectNode node) {
        return EventJson.write(node).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] encode(Message frame) {
        ByteBuffer buffer = frame.toByteBuffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
