package dev.stockade.inference.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits server-sent events out of a byte stream fed in arbitrary slices (a slice may end inside a UTF-8
 * sequence, a line, or between the CR and LF of one line ending). Lines are decoded only once whole, and no
 * line or event is held past {@code maxEventBytes}: a longer one stops the decoder. Not thread-safe.
 */
public final class SseDecoder {

    /** Receives each dispatched event. */
    public interface Listener {
        /** One event: its {@code event:} name (empty when none) and its {@code data:} lines joined by LF. */
        void event(String name, String data);
    }

    private final Listener listener;
    private final int maxEventBytes;
    private byte[] line = new byte[256];
    private int lineLength;
    private boolean afterCarriageReturn;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private int eventBytes;
    private String eventName = "";
    private boolean oversized;

    public SseDecoder(Listener listener, int maxEventBytes) {
        this.listener = listener;
        this.maxEventBytes = maxEventBytes;
    }

    /** Whether a line or event grew past the bound; the decoder ignores input from then on. */
    public boolean oversized() {
        return oversized;
    }

    /** Whether part of a line or an undispatched event is held (at the end of the body: an incomplete event). */
    public boolean pending() {
        return lineLength > 0 || hasData;
    }

    /** Feeds the next slice. */
    public void feed(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length && !oversized; i++) {
            byte b = bytes[i];
            if (b == '\n' && afterCarriageReturn) {
                afterCarriageReturn = false;
                continue;
            }
            afterCarriageReturn = b == '\r';
            if (b == '\r' || b == '\n') {
                endLine();
            } else {
                append(b);
            }
        }
    }

    private void append(byte b) {
        if (lineLength == maxEventBytes) {
            oversized = true;
            return;
        }
        if (lineLength == line.length) {
            line = Arrays.copyOf(line, (int) Math.min((long) line.length * 2, maxEventBytes));
        }
        line[lineLength++] = b;
    }

    private void endLine() {
        String text = new String(line, 0, lineLength, StandardCharsets.UTF_8);
        int length = lineLength;
        lineLength = 0;
        if (line.length > 4096) {
            line = new byte[256]; // give back what one long line took
        }
        if (text.isEmpty()) {
            dispatch();
        } else if (text.charAt(0) != ':') {
            field(text, length);
        }
    }

    private void field(String text, int byteLength) {
        int colon = text.indexOf(':');
        String name = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        if (name.equals("event")) {
            eventName = value;
        } else if (name.equals("data")) {
            eventBytes += byteLength;
            if (eventBytes > maxEventBytes) {
                oversized = true;
                return;
            }
            if (hasData) {
                data.append('\n');
            }
            data.append(value);
            hasData = true;
        }
    }

    private void dispatch() {
        if (hasData) {
            listener.event(eventName, data.toString());
        }
        data.setLength(0);
        if (data.capacity() > 4096) {
            data.trimToSize();
        }
        hasData = false;
        eventBytes = 0;
        eventName = "";
    }
}
