package dev.stockade.runtime.tui;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.host.sse.SseEvent;
import dev.stockade.host.sse.SseReader;
import dev.stockade.runtime.json.MalformedJson;
import dev.stockade.runtime.json.StrictJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A turn's events as they arrive, read on a thread of their own so that the terminal's thread can stop following
 * them at any moment (Ctrl-C) without waiting for the runtime: {@link #detach} ends {@link #next} at once. The
 * runtime finishes and stores the turn either way; the API has no way to cancel one.
 */
final class ReplyStream {
    /** Opens the event stream; a refusal or an unreachable runtime is the one line of the exception. */
    @FunctionalInterface
    interface Opener {
        InputStream open() throws RuntimeUnavailable;
    }

    private final BlockingQueue<TurnEvent> events = new LinkedBlockingQueue<>();
    private volatile InputStream body;
    private volatile boolean detached;

    private ReplyStream() {
    }

    static ReplyStream start(Opener opener) {
        ReplyStream s = new ReplyStream();
        Thread reader = new Thread(() -> s.read(opener), "tui-reply");
        reader.setDaemon(true);
        reader.start();
        return s;
    }

    /** The next event, waiting for it; after a {@link TurnEvent.Done}, {@link TurnEvent.Failed} or detach, no more. */
    TurnEvent next() throws InterruptedException {
        return events.take();
    }

    /** Stops following the turn: {@link #next} answers {@link TurnEvent.Detached} and the connection is closed. */
    void detach() {
        detached = true;
        events.add(new TurnEvent.Detached());
        InputStream in = body;
        if (in != null) {
            try {
                in.close();
            } catch (IOException e) {
                // the connection is being dropped anyway
            }
        }
    }

    private void read(Opener opener) {
        try {
            body = opener.open();
            if (detached) {
                body.close();
                return;
            }
            try (SseReader reader = new SseReader(body)) {
                for (SseEvent e = reader.next(); e != null; e = reader.next()) {
                    TurnEvent t = of(e);
                    if (t != null) {
                        events.add(t);
                    }
                    if (t instanceof TurnEvent.Done || t instanceof TurnEvent.Failed) {
                        return;
                    }
                }
            }
            events.add(new TurnEvent.Failed("the runtime ended the stream before the turn ended"));
        } catch (RuntimeUnavailable e) {
            events.add(new TurnEvent.Failed(e.getMessage()));
        } catch (IOException e) {
            if (!detached) {
                events.add(new TurnEvent.Failed("the reply's stream broke (" + e.getClass().getSimpleName() + "); "
                        + "the turn may still finish: /resume shows the thread"));
            }
        }
    }

    /** One event of the runtime's stream; unknown event names are skipped (a later runtime may send more). */
    static TurnEvent of(SseEvent e) {
        JsonNode d;
        try {
            d = StrictJson.object(e.data().getBytes(StandardCharsets.UTF_8));
        } catch (MalformedJson m) {
            return new TurnEvent.Failed("the runtime sent an event that is not JSON: " + m.getMessage());
        }
        return switch (e.name()) {
            case "delta" -> new TurnEvent.Delta(d.path("text").asText());
            case "step" -> new TurnEvent.Step(d.path("text").asText());
            case "tool" -> new TurnEvent.ToolRan(d.path("name").asText(), d.path("error").asBoolean());
            case "done" -> new TurnEvent.Done(d.path("compacted").asBoolean(),
                    d.path("contextPercent").isNumber() ? d.path("contextPercent").asInt() : null);
            case "error" -> new TurnEvent.Failed(d.path("detail").asText(d.path("title").asText("the turn failed")));
            default -> null;
        };
    }
}
