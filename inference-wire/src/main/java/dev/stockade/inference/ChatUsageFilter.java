package dev.stockade.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.inference.internal.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * Withholds the usage-only chunk ({@code choices: []} with a {@code usage} object) from a Chat Completions stream
 * whose client did not ask for it, so the proxy's added {@code include_usage} stays invisible. Events are passed
 * on whole and byte for byte; a partial event waits for its end. An event longer than
 * {@link WireLimits#maxEventBytes()} ends filtering: from there on everything passes unchanged. Meter the
 * upstream bytes, not this filter's output. Not thread-safe: one per stream.
 */
public final class ChatUsageFilter {

    private final int maxEventBytes;
    private final ObjectMapper mapper;
    private byte[] held = new byte[0];
    private boolean atLineStart = true;
    private boolean afterCarriageReturn;
    private boolean passThrough;
    private int scanned;

    public ChatUsageFilter(WireLimits limits) {
        this.maxEventBytes = limits.maxEventBytes();
        this.mapper = Json.mapper(limits.maxEventBytes());
    }

    /** The bytes to send to the client now, given the next upstream slice. */
    public byte[] pass(byte[] bytes, int offset, int length) {
        if (passThrough) {
            return Arrays.copyOfRange(bytes, offset, offset + length);
        }
        byte[] joined = Arrays.copyOf(held, held.length + length);
        System.arraycopy(bytes, offset, joined, held.length, length);
        ByteArrayOutputStream out = new ByteArrayOutputStream(joined.length);
        int eventStart = 0;
        for (int i = scanned; i < joined.length && !passThrough; i++) {
            if (endsEvent(joined[i])) {
                passThrough = i + 1 - eventStart > maxEventBytes;
                if (!passThrough) {
                    forward(joined, eventStart, i + 1, out);
                    eventStart = i + 1;
                }
            }
        }
        // An event past the bound, whole or still arriving, ends filtering at the same event however it is sliced.
        passThrough |= joined.length - eventStart > maxEventBytes;
        if (passThrough) {
            out.write(joined, eventStart, joined.length - eventStart);
            held = new byte[0];
        } else {
            held = Arrays.copyOfRange(joined, eventStart, joined.length);
            scanned = held.length;
        }
        return out.toByteArray();
    }

    /** The upstream body ended: whatever is held (half an event) goes on as it came. */
    public byte[] finish() {
        byte[] rest = held;
        held = new byte[0];
        return rest;
    }

    /** Tracks line ends; true at the end of an empty line, which ends an event. */
    private boolean endsEvent(byte b) {
        if (b == '\n' && afterCarriageReturn) {
            afterCarriageReturn = false;
            return false; // the LF of a CRLF already counted at its CR
        }
        afterCarriageReturn = b == '\r';
        if (b != '\r' && b != '\n') {
            atLineStart = false;
            return false;
        }
        boolean emptyLine = atLineStart;
        atLineStart = true;
        return emptyLine;
    }

    private void forward(byte[] buffer, int from, int to, ByteArrayOutputStream out) {
        if (!usageOnly(new String(buffer, from, to - from, StandardCharsets.UTF_8))) {
            out.write(buffer, from, to - from);
        }
    }

    private boolean usageOnly(String event) {
        StringBuilder data = new StringBuilder();
        for (String line : event.split("\r\n|\r|\n")) {
            if (line.startsWith("data:")) {
                data.append(data.length() == 0 ? "" : "\n").append(line.substring(line.startsWith("data: ") ? 6 : 5));
            }
        }
        byte[] json = data.toString().getBytes(StandardCharsets.UTF_8);
        Optional<JsonNode> chunk = Json.object(mapper, json, 0, json.length);
        return chunk.isPresent() && chunk.get().path("usage").isObject()
                && chunk.get().path("choices").isArray() && chunk.get().path("choices").isEmpty();
    }
}
