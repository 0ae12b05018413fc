package dev.stockade.runtime.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.channel.DeliverTo;
import dev.stockade.runtime.http.HttpProblem;
import dev.stockade.runtime.http.Request;
import dev.stockade.runtime.http.Response;
import dev.stockade.runtime.http.Router;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Manages the receiver toggle and subscriptions over HTTP (the web UI's backend); every change applies
 * to the next delivery, no restart.
 */
public final class WebhookAdmin {
    private final WebhookStore store;

    public WebhookAdmin(WebhookStore store) {
        this.store = store;
    }

    /** Adds the management routes. */
    public void routes(Router r) {
        r.add("GET", "/agents/webhook-receiver", req -> receiver());
        r.add("PATCH", "/agents/webhook-receiver", this::setReceiver);
        r.add("GET", "/agents/webhook-subscriptions", req -> Response.json(200,
                Map.of("subscriptions", store.list().stream().map(WebhookAdmin::view).toList())));
        r.add("POST", "/agents/webhook-subscriptions", this::create);
        r.add("GET", "/agents/webhook-subscriptions/{name}", req -> Response.json(200, view(existing(req))));
        r.add("PATCH", "/agents/webhook-subscriptions/{name}", this::patch);
        r.add("DELETE", "/agents/webhook-subscriptions/{name}", req -> {
            existing(req);
            store.delete(req.param("name"));
            return Response.noContent();
        });
        r.add("GET", "/agents/webhook-subscriptions/{name}/runs", req -> Response.json(200, Map.of("runs",
                store.runs(existing(req).name()).stream().map(WebhookAdmin::runView).toList())));
    }

    private Response receiver() throws Exception {
        return Response.json(200, Map.of("enabled", store.receiverEnabled()));
    }

    private Response setReceiver(Request req) throws Exception {
        store.setReceiverEnabled(bool(req.jsonObject(), "enabled", null));
        return receiver();
    }

    private Response create(Request req) throws Exception {
        JsonNode b = req.jsonObject();
        String name = Subscription.slug(text(b, "name", null));
        if (name == null) {
            throw new HttpProblem(400, "invalid-name", "`name` must be a lowercase slug matching "
                    + "[a-z0-9][a-z0-9_-]* (spaces become hyphens), at most " + Subscription.MAX_NAME + " characters");
        }
        Subscription s = apply(new Subscription(name, "", List.of(), DeliverTo.ALL, false, "", true), b);
        if (!store.create(s)) {
            throw new HttpProblem(409, "name-taken", "a subscription named `" + name + "` exists");
        }
        return Response.json(201, view(s));
    }

    private Response patch(Request req) throws Exception {
        Subscription s = apply(existing(req), req.jsonObject());
        store.update(s);
        return Response.json(200, view(s));
    }

    private Subscription existing(Request req) throws Exception {
        Subscription s = store.get(req.param("name"));
        if (s == null) {
            throw new HttpProblem(404, "no-subscription", "no webhook subscription named `"
                    + WebhookReceiver.safe(req.param("name")) + "`");
        }
        return s;
    }

    private static Subscription apply(Subscription s, JsonNode b) {
        String deliverTo = text(b, "deliverTo", s.deliverTo().wire());
        DeliverTo target = DeliverTo.parse(deliverTo);
        if (target == null) {
            throw new HttpProblem(400, "invalid-deliver-to", "`deliverTo` must be all, chat or slack");
        }
        String prompt = text(b, "prompt", s.prompt());
        if (prompt.length() > 20_000) {
            throw new HttpProblem(400, "prompt-too-long", "`prompt` is longer than 20000 characters");
        }
        JsonNode events = b.get("events");
        List<String> ev = events == null ? s.events() : events.isArray()
                ? Subscription.parseEvents(String.join(",", iterText(events)))
                : Subscription.parseEvents(text(b, "events", ""));
        return new Subscription(s.name(), text(b, "description", s.description()), ev, target,
                bool(b, "deliverOnly", s.deliverOnly()), prompt, bool(b, "active", s.active()));
    }

    private static List<String> iterText(JsonNode arr) {
        List<String> out = new java.util.ArrayList<>();
        arr.forEach(n -> {
            if (!n.isTextual()) {
                throw new HttpProblem(400, "invalid-events", "`events` items must be strings");
            }
            out.add(n.asText());
        });
        return out;
    }

    private static String text(JsonNode b, String field, String fallback) {
        JsonNode n = b.get(field);
        if (n == null) {
            if (fallback == null) {
                throw new HttpProblem(400, "missing-field", "`" + field + "` is required");
            }
            return fallback;
        }
        if (!n.isTextual()) {
            throw new HttpProblem(400, "invalid-field", "`" + field + "` must be a string");
        }
        return n.asText();
    }

    static boolean bool(JsonNode b, String field, Boolean fallback) {
        JsonNode n = b.get(field);
        if (n == null && fallback != null) {
            return fallback;
        }
        if (n == null || !n.isBoolean()) {
            throw new HttpProblem(400, "invalid-field", "`" + field + "` must be a boolean");
        }
        return n.asBoolean();
    }

    private static Map<String, Object> view(Subscription s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", s.name());
        m.put("path", "/agents/webhooks/" + s.name());
        m.put("description", s.description());
        m.put("events", s.events());
        m.put("deliverTo", s.deliverTo().wire());
        m.put("deliverOnly", s.deliverOnly());
        m.put("prompt", s.prompt());
        m.put("active", s.active());
        return m;
    }

    private static Map<String, Object> runView(WebhookStore.Run r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runId", r.id());
        m.put("seq", r.seq());
        m.put("event", r.event());
        m.put("status", r.status());
        m.put("outcome", r.outcome());
        return m;
    }
}
