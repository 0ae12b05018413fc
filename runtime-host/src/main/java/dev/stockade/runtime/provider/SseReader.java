package dev.stockade.runtime.provider;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Reads server-sent events ({@code event:}/{@code data:} fields, events ended by a blank line).
 * Comment lines are skipped; multi-line data is joined with newlines.
 */
final class SseReader implements AutoCloseable {
    /** One event; {@code name} is {@code message} when the stream gave none. */
    record Event(String name, String data) {
    }

    private final BufferedReader in;

    SseReader(InputStream body) {
        this.in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    }

    /** The next event, or {@code null} at the end of the stream. */
    Event next() throws IOException {
        String name = null;
        StringBuilder data = null;
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) {
                if (data != null || name != null) {
                    return new Event(name == null ? "message" : name, data == null ? "" : data.toString());
                }
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            if (field.equals("event")) {
                name = value;
            } else if (field.equals("data")) {
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
