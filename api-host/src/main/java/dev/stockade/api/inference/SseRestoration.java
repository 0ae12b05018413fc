package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.inference.WireFormat;
import dev.stockade.pii.MaskingException;
import dev.stockade.pii.Restorer;
import dev.stockade.pii.StreamRestorer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Restores placeholders in a server-sent event stream, one event at a time. A model writes a placeholder in pieces
 * across events, so the text deltas are decoded from each event's JSON (where escapes are undone) and fed to one
 * {@link StreamRestorer} per content block (Anthropic) or choice (Chat Completions); the event goes on re-encoded
 * with what the restorer released, and what it held back goes with a later event or at the block's end. Other
 * formats' events are restored where a placeholder lies whole inside one string. An event larger than
 * {@link #MAX_EVENT} passes as it is.
 */
final class SseRestoration implements RestoringBody.Stage {
    /** The largest event held for restoration; larger ones pass unrestored (placeholders stay in them). */
    static final int MAX_EVENT = 1024 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final WireFormat format;
    private final Restorer restorer;
    /** Open text streams: Anthropic content blocks by index, Chat Completions choices by index. */
    private final Map<Integer, StreamRestorer> open = new HashMap<>();
    private byte[] pending = new byte[1024];
    private int pendingLength;
    /** Scanning resumes here: no event boundary ends before it. */
    private int scanned;
    /** Inside an event too large to hold: its bytes pass until the next boundary. */
    private boolean passing;

    SseRestoration(WireFormat format, Restorer restorer) {
        this.format = format;
        this.restorer = restorer;
    }

    @Override
    public byte[] push(byte[] chunk) {
        append(chunk);
        ByteArrayOutputStream out = new ByteArrayOutputStream(chunk.length + 64);
        for (int end = boundary(); end > 0; end = boundary()) {
            byte[] event = Arrays.copyOfRange(pending, 0, end);
            out.writeBytes(passing ? event : restored(event));
            passing = false;
            drop(end);
        }
        if (pendingLength > MAX_EVENT) {
            passing = true;
            out.write(pending, 0, pendingLength);
            drop(pendingLength);
        }
        return out.toByteArray();
    }

    @Override
    public byte[] finish() {
        byte[] rest = Arrays.copyOf(pending, pendingLength);
        drop(pendingLength);
        return rest;
    }

    private void append(byte[] chunk) {
        if (pendingLength + chunk.length > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLength + chunk.length));
        }
        System.arraycopy(chunk, 0, pending, pendingLength, chunk.length);
        pendingLength += chunk.length;
    }

    private void drop(int count) {
        System.arraycopy(pending, count, pending, 0, pendingLength - count);
        pendingLength -= count;
        scanned = 0;
    }

    /** The end (exclusive) of the first complete event: after a blank line ({@code \n\n} or {@code \r\n\r\n}). */
    private int boundary() {
        for (int i = Math.max(0, scanned - 3); i < pendingLength - 1; i++) {
            if (pending[i] == '\n' && pending[i + 1] == '\n') {
                return i + 2;
            }
            if (pending[i] == '\n' && i + 2 < pendingLength && pending[i + 1] == '\r' && pending[i + 2] == '\n') {
                return i + 3;
            }
        }
        scanned = pendingLength;
        return -1;
    }

    /** The event with its placeholders restored; the original bytes when nothing changed. */
    private byte[] restored(byte[] event) {
        String text = new String(event, StandardCharsets.UTF_8);
        String[] lines = text.split("\r?\n", -1);
        int dataLine = -1;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("data:")) {
                if (dataLine >= 0) {
                    return event; // a multi-line payload: not a shape these backends send
                }
                dataLine = i;
            }
        }
        if (dataLine < 0) {
            return event;
        }
        String data = lines[dataLine].substring(5);
        data = data.startsWith(" ") ? data.substring(1) : data;
        if (!data.startsWith("{")) {
            return event; // [DONE] and the like
        }
        List<String> before = new ArrayList<>();
        String after = switch (format) {
            case ANTHROPIC_MESSAGES, BEDROCK_INVOKE -> anthropic(data, before);
            case OPENAI_CHAT -> chat(data);
            default -> whole(data);
        };
        if (after == null && before.isEmpty()) {
            return event;
        }
        StringBuilder out = new StringBuilder();
        before.forEach(extra -> out.append("event: content_block_delta\ndata: ").append(extra).append("\n\n"));
        if (after != null) {
            lines[dataLine] = "data: " + after;
        }
        out.append(String.join("\n", lines));
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * An Anthropic event: {@code text_delta}s go through their block's restorer; a {@code content_block_stop} is
     * preceded by a delta with what the restorer still held. Returns the new data, or null when unchanged.
     */
    private String anthropic(String data, List<String> before) {
        ObjectNode node = parse(data);
        if (node == null) {
            return null;
        }
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
            return write(node);
        }
        if (type.equals("content_block_stop")) {
            StreamRestorer ending = open.remove(index);
            String rest = ending == null ? "" : ending.finish();
            if (!rest.isEmpty()) {
                ObjectNode extra = JSON.createObjectNode().put("type", "content_block_delta").put("index", index);
                extra.putObject("delta").put("type", "text_delta").put("text", rest);
                before.add(write(extra));
            }
        }
        return null;
    }

    /**
     * A Chat Completions chunk: each choice's {@code delta.content} goes through that choice's restorer, and the
     * chunk that finishes a choice carries what the restorer still held. Returns the new data, or null.
     */
    private String chat(String data) {
        ObjectNode node = parse(data);
        if (node == null || !node.path("choices").isArray()) {
            return null;
        }
        boolean changed = false;
        for (JsonNode choice : node.get("choices")) {
            if (!(choice instanceof ObjectNode c)) {
                continue;
            }
            int index = c.path("index").asInt(0);
            JsonNode delta = c.path("delta");
            String text = delta.path("content").isTextual() ? delta.get("content").asText() : null;
            String got = text == null ? null : open.computeIfAbsent(index, i -> restorer.stream()).push(text);
            boolean finishing = c.hasNonNull("finish_reason");
            StreamRestorer ending = finishing ? open.remove(index) : null;
            String rest = ending == null ? "" : ending.finish();
            if ((got != null && !got.equals(text)) || !rest.isEmpty()) {
                ObjectNode d = delta instanceof ObjectNode o ? o : c.putObject("delta");
                d.put("content", (got == null ? "" : got) + rest);
                changed = true;
            }
        }
        return changed ? write(node) : null;
    }

    /** Any other event: placeholders that lie whole inside one string value. Returns the new data, or null. */
    private String whole(String data) {
        try {
            byte[] in = data.getBytes(StandardCharsets.UTF_8);
            byte[] out = restorer.restoreJson(in);
            return Arrays.equals(in, out) || JSON.readTree(in).equals(JSON.readTree(out))
                    ? null : new String(out, StandardCharsets.UTF_8);
        } catch (MaskingException | IOException notJson) {
            return null;
        }
    }

    private static ObjectNode parse(String data) {
        try {
            return JSON.readTree(data) instanceof ObjectNode o ? o : null;
        } catch (IOException notJson) {
            return null;
        }
    }

    private static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (IOException e) {
            throw new IllegalStateException("a parsed JSON event could not be written again", e);
        }
    }
}
