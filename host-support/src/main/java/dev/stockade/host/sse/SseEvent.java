package dev.stockade.host.sse;

/**
 * One server-sent event: its name ({@code message} when the stream gave none), its data (multi-line data joined with
 * newlines, as the HTML standard's event-stream interpretation does) and its id ({@code null} when none was given).
 */
public record SseEvent(String name, String data, String id) {
    /** The event name a stream means when it names none. */
    public static final String DEFAULT_NAME = "message";

    /** An event without an id. */
    public static SseEvent of(String name, String data) {
        return new SseEvent(name, data, null);
    }
}
