package dev.stockade.runtime.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.agent.AgentTask;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.channel.Broadcast;
import dev.stockade.runtime.json.StrictJson;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.observe.Telemetry;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;

/**
 * Executes accepted runs one at a time per subscription, in acceptance order, from the durable queue
 * in SQLite. A drain task per subscription takes the oldest unfinished run until none is left; a run
 * left {@code running} by a crash is taken again first (at least once).
 */
public final class RunQueue {
    private final WebhookStore store;
    private final Broadcast broadcast;
    private final Conversations conversations;
    private final AgentTask agent;
    private final ExecutorService pool;
    private final Telemetry telemetry;
    private final Set<String> draining = ConcurrentHashMap.newKeySet();

    public RunQueue(WebhookStore store, Broadcast broadcast, Conversations conversations, AgentTask agent,
            ExecutorService pool, Telemetry telemetry) {
        this.store = store;
        this.broadcast = broadcast;
        this.conversations = conversations;
        this.agent = agent;
        this.pool = pool;
        this.telemetry = telemetry;
    }

    /** Starts draining every subscription that has unfinished runs (at boot). */
    public void resumeAll() throws SQLException {
        for (String name : store.withOpenRuns()) {
            Log.info("webhook.resume", "webhook", name);
            kick(name);
        }
    }

    /** Makes sure {@code webhook}'s queue is being drained. */
    public void kick(String webhook) {
        if (draining.add(webhook)) {
            pool.execute(() -> drain(webhook));
        }
    }

    private void drain(String webhook) {
        try {
            WebhookStore.Run run;
            while ((run = store.nextOpen(webhook)) != null) {
                execute(run);
            }
        } catch (SQLException e) {
            Log.error("webhook.queue_failed", "webhook", webhook, "error", e.getClass().getSimpleName());
        } finally {
            draining.remove(webhook);
        }
        // A run accepted between the last empty read and the removal above would otherwise wait.
        try {
            if (store.nextOpen(webhook) != null) {
                kick(webhook);
            }
        } catch (SQLException e) {
            Log.error("webhook.queue_failed", "webhook", webhook, "error", e.getClass().getSimpleName());
        }
    }

    private void execute(WebhookStore.Run run) throws SQLException {
        Subscription sub = store.start(run);
        if (sub == null) {
            store.finish(run.id(), false, "subscription deleted");
            return;
        }
        long started = System.nanoTime();
        String header = "**Webhook: " + sub.name() + "**\n\n";
        try {
            // The stored payload is read as strictly as the body it came from; a corrupt row fails the run.
            JsonNode payload = StrictJson.object(run.payload());
            String prompt = sub.prompt().isBlank() ? PromptTemplate.leadIn(sub.name(), run.event(), payload)
                    : PromptTemplate.render(sub.prompt(), payload);
            String thread = "webhook-run:" + sub.name();
            conversations.createWithId(thread, "webhook", "Webhook: " + sub.name(), true);
            String reply = agent.run(thread, prompt, null);
            broadcast.deliver(sub.deliverTo(), "webhook:" + sub.name(), "Webhook: " + sub.name(), header + reply);
            store.finish(run.id(), true, "delivered");
            telemetry.event("webhook.run", "run", run.id(), "ok", true, "ms", (System.nanoTime() - started) / 1_000_000);
            Log.info("webhook.run_done", "webhook", sub.name(), "run", run.id(), "eventType", run.event(),
                    "ms", (System.nanoTime() - started) / 1_000_000);
        } catch (Exception e) {
            String reason = e.getClass().getSimpleName();
            Log.warn("webhook.run_failed", "webhook", sub.name(), "run", run.id(), "error", reason);
            broadcast.deliver(sub.deliverTo(), "webhook:" + sub.name(), "Webhook: " + sub.name(), header
                    + "The run for event `" + run.event() + "` failed (" + AgentFailure.describe(e)
                    + "). Run id: " + run.id());
            store.finish(run.id(), false, reason);
            telemetry.event("webhook.run", "run", run.id(), "ok", false, "ms", (System.nanoTime() - started) / 1_000_000);
        }
    }
}
