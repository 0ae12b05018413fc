package dev.stockade.runtime.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.channel.Broadcast;
import dev.stockade.runtime.http.HttpProblem;
import dev.stockade.runtime.http.Request;
import dev.stockade.runtime.http.Response;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.observe.Telemetry;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code POST /agents/webhooks/<name>}: every status of runtime.md's table. */
public final class WebhookReceiver {
    private final WebhookStore store;
    private final RunQueue queue;
    private final Broadcast broadcast;
    private final Telemetry telemetry;

    public WebhookReceiver(WebhookStore store, RunQueue queue, Broadcast broadcast, Telemetry telemetry) {
        this.store = store;
        this.queue = queue;
        this.broadcast = broadcast;
        this.telemetry = telemetry;
    }

    /** Handles one delivery. */
    public Response handle(Request req) throws Exception {
        String name = req.param("name");
        WebhookStore.Gate gate = store.gate(name);
        if (!gate.receiverEnabled()) {
            throw new HttpProblem(403, "receiver-disabled", "the webhook receiver is disabled");
        }
        Subscription sub = gate.subscription();
        if (sub == null) {
            throw new HttpProblem(404, "no-subscription", "no webhook subscription named `" + safe(name) + "`");
        }
        if (!sub.active()) {
            throw new HttpProblem(403, "subscription-disabled", "the webhook subscription `" + name + "` is disabled");
        }
        JsonNode payload = req.jsonObject();
        String event = EventTypes.resolve(req::header, payload);
        if (!sub.accepts(event)) {
            Log.info("webhook.ignored", "webhook", name, "eventType", event);
            telemetry.event("webhook.ignored", "deliver_only", sub.deliverOnly());
            return status(200, "ignored", event, null);
        }
        if (sub.deliverOnly()) {
            String text = PromptTemplate.forDelivery(sub, event, payload);
            broadcast.deliver(sub.deliverTo(), "webhook:" + name, "Webhook: " + name, text);
            Log.info("webhook.delivered", "webhook", name, "eventType", event);
            telemetry.event("webhook.delivered", "template_chars", text.length());
            return status(200, "delivered", event, null);
        }
        String runId = store.accept(name, event, payload.toString());
        if (runId == null) {
            Log.warn("webhook.queue_full", "webhook", name, "eventType", event);
            throw new HttpProblem(429, "queue-full", "the subscription `" + name + "` already has "
                    + WebhookStore.MAX_PENDING + " pending runs");
        }
        queue.kick(name);
        telemetry.event("webhook.accepted", "run", runId);
        Log.info("webhook.accepted", "webhook", name, "eventType", event, "run", runId);
        return status(202, "accepted", event, runId);
    }

    private static Response status(int code, String status, String event, String runId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put("event", event);
        if (runId != null) {
            body.put("runId", runId);
        }
        return Response.json(code, body);
    }

    /** A requested name as echoed in an error: bounded, printable. */
    static String safe(String s) {
        String t = s == null ? "" : s.replaceAll("[^A-Za-z0-9_.-]", "?");
        return t.length() > 64 ? t.substring(0, 64) + "…" : t;
    }
}
