package dev.stockade.runtime.web;

import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.http.HttpProblem;
import dev.stockade.runtime.http.Request;
import dev.stockade.runtime.http.Response;
import dev.stockade.runtime.store.AgentStore;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /agents/threads/<id>/live/<after>}: a thread's messages as they are stored, whoever stored them (a
 * web turn, a webhook delivery, a heartbeat), as server-sent {@code entry} events with the message id as event id.
 * It first sends what was stored after {@code after} (or after the browser's {@code Last-Event-ID} on a reconnect),
 * so nothing between the page's render and the stream's start is lost, then stays open until the client leaves.
 */
final class LiveFeed {
    /** How often an idle stream sends a comment, so that proxies keep it and a departed client is noticed. */
    static final long KEEP_ALIVE_SECONDS = 15;
    /** Messages waiting for one slow client; beyond this the stream ends and the browser reconnects and catches up. */
    static final int BACKLOG = 1000;

    private final Conversations conversations;
    private final AgentStore agents;

    LiveFeed(Conversations conversations, AgentStore agents) {
        this.conversations = conversations;
        this.agents = agents;
    }

    Response open(Request req) throws Exception {
        String thread = req.param("id");
        if (conversations.thread(thread) == null) {
            throw new HttpProblem(404, "no-thread", "no such thread");
        }
        long after = position(req.header("last-event-id"), position(req.param("after"), 0));
        return Response.events(events -> {
            BlockingQueue<Conversations.Message> queue = new LinkedBlockingQueue<>(BACKLOG);
            // Watch before reading the backlog: a message stored in between arrives twice, never not at all.
            try (AutoCloseable watch = conversations.watch(m -> {
                if (m.threadId().equals(thread)) {
                    queue.offer(m);
                }
            })) {
                long sent = after;
                for (Conversations.Message m : conversations.messages(thread)) {
                    sent = send(events, m, sent);
                }
                while (events.open() && queue.remainingCapacity() > 0) {
                    Conversations.Message m = queue.poll(KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
                    if (m == null) {
                        events.keepAlive();
                    } else {
                        sent = send(events, m, sent);
                    }
                }
            } catch (InterruptedException e) {
                // The runtime is stopping: the stream ends; the browser reconnects to the next start.
                Thread.currentThread().interrupt();
            }
        }).withHeaders(Html.HEADERS);
    }

    /** Sends {@code m} unless it was already sent; returns the highest id sent. */
    private long send(Response.Events events, Conversations.Message m, long sent) throws Exception {
        if (m.id() <= sent) {
            return sent;
        }
        Optional<Transcript.Entry> e = Transcript.entry(m, agents.profile().verbose());
        if (e.isPresent()) {
            events.send("entry", Long.toString(m.id()), e.get());
        }
        return m.id();
    }

    /** A message id from the path or the Last-Event-ID header; {@code fallback} when absent, 400 when malformed. */
    static long position(String raw, long fallback) {
        if (raw == null || raw.isBlank()) {
            return fallback;
        }
        try {
            long v = Long.parseLong(raw.strip());
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new HttpProblem(400, "invalid-position", "the position must be a message id (a non-negative integer)");
    }
}
