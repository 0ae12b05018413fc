package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.inference.WireFormat;
import dev.stockade.pii.Restorer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Restores placeholders in a server-sent event stream, one event at a time. A model writes a placeholder in pieces
 * across events, so the text deltas are decoded from each event's JSON (where escapes are undone) and fed to one
 * {@code StreamRestorer} per content block ({@link AnthropicTextRestoration}), choice or tool call
 * ({@link ChatTextRestoration}) or part ({@link ResponsesTextRestoration}); the event goes on re-encoded with what
 * the restorer released, and what it held back goes with a later event or at the block's end. An event larger than
 * {@link #MAX_EVENT} passes as it is.
 */
final class SseRestoration implements RestoringBody.Stage {
    /** The largest event held for restoration; larger ones pass unrestored (placeholders stay in them). */
    static final int MAX_EVENT = 1024 * 1024;

    private final WireFormat format;
    private final Restorer restorer;
    private final AnthropicTextRestoration anthropic;
    private final ResponsesTextRestoration responses;
    private final ChatTextRestoration chat;
    private byte[] pending = new byte[1024];
    private int pendingLength;
    /** Scanning resumes here: no event boundary ends before it. */
    private int scanned;
    /** Inside an event too large to hold: its bytes pass until the next boundary. */
    private boolean passing;

    SseRestoration(WireFormat format, Restorer restorer) {
        this.format = format;
        this.restorer = restorer;
        this.anthropic = new AnthropicTextRestoration(restorer);
        this.responses = new ResponsesTextRestoration(restorer);
        this.chat = new ChatTextRestoration(restorer);
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
        ObjectNode node = EventJson.parse(data.startsWith(" ") ? data.substring(1) : data);
        if (node == null) {
            return event; // [DONE] and the like
        }
        List<ObjectNode> before = new ArrayList<>();
        ObjectNode after = switch (format) {
            case ANTHROPIC_MESSAGES, BEDROCK_INVOKE -> anthropic.event(node, before);
            case OPENAI_CHAT -> chat.chunk(node);
            case OPENAI_RESPONSES -> responses.event(node, before);
            default -> EventJson.restoredStrings(restorer, node, RequestMasking.format(format));
        };
        if (after == null && before.isEmpty()) {
            return event;
        }
        StringBuilder out = new StringBuilder();
        // an extra event is named by its type, as both Anthropic and Responses name theirs
        before.forEach(extra -> out.append("event: ").append(extra.path("type").asText()).append("\ndata: ")
                .append(EventJson.write(extra)).append("\n\n"));
        if (after != null) {
            lines[dataLine] = "data: " + EventJson.write(after);
        }
        out.append(String.join("\n", lines));
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
