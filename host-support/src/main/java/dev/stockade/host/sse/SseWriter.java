package dev.stockade.host.sse;

import java.nio.charset.StandardCharsets;

/** Writes server-sent events in the form {@link SseReader} (and every browser and SDK) reads. */
public final class SseWriter {
    private SseWriter() {
    }

    /**
     * One event as its wire text: {@code event:}, {@code id:} when given, one {@code data:} line per line of the data
     * (so data holding a newline cannot end the event early or inject a field), and the blank line that ends it.
     */
    public static String frame(SseEvent event) {
        StringBuilder out = new StringBuilder();
        if (!event.name().equals(SseEvent.DEFAULT_NAME)) {
            out.append("event: ").append(oneLine(event.name())).append('\n');
        }
        if (event.id() != null) {
            out.append("id: ").append(oneLine(event.id())).append('\n');
        }
        for (String line : event.data().split("\r\n|\r|\n", -1)) {
            out.append("data: ").append(line).append('\n');
        }
        return out.append('\n').toString();
    }

    /** {@link #frame} as UTF-8 bytes. */
    public static byte[] bytes(SseEvent event) {
        return frame(event).getBytes(StandardCharsets.UTF_8);
    }

    /** A comment line (a keep-alive the reader skips). */
    public static String comment(String text) {
        return ":" + oneLine(text) + "\n\n";
    }

    private static String oneLine(String s) {
        return s.replace('\r', ' ').replace('\n', ' ');
    }
}
