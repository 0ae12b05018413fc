package dev.stockade.host.sse;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Reads a {@code text/event-stream} (the HTML standard's format): {@code event:}, {@code data:} and {@code id:}
 * fields, an event dispatched at a blank line, comment lines ({@code :ping}) skipped, one space after the colon
 * removed, multi-line data joined with newlines. The one reader every host uses.
 */
public final class SseReader implements AutoCloseable {
    private final BufferedReader in;
    private final Runnable onLine;

    /** Reads {@code body} as UTF-8. */
    public SseReader(InputStream body) {
        this(body, () -> { });
    }

    /** As above; {@code onLine} runs for every line read, comments included (a liveness clock for keep-alives). */
    public SseReader(InputStream body, Runnable onLine) {
        this.in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        this.onLine = onLine;
    }

    /** The next event, or {@code null} at the end of the stream (an unterminated last event is dropped). */
    public SseEvent next() throws IOException {
        String name = null;
        String id = null;
        StringBuilder data = null;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            onLine.run();
            if (line.isEmpty()) {
                if (data != null || name != null) {
                    return new SseEvent(name == null ? SseEvent.DEFAULT_NAME : name, data == null ? "" : data.toString(),
                            id);
                }
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            value = value.startsWith(" ") ? value.substring(1) : value;
            switch (field) {
                case "event" -> name = value;
                case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                case "id" -> id = value;
                default -> { } // retry and unknown fields: nothing a host here acts on
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
