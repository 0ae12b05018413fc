package dev.stockade.runtime.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.channel.DeliverTo;
import dev.stockade.runtime.http.HttpProblem;
import dev.stockade.runtime.http.Request;
import dev.stockade.runtime.http.Response;
import dev.stockade.runtime.http.Router;
import dev.stockade.runtime.json.MalformedJson;
import dev.stockade.runtime.json.StrictJson;
import dev.stockade.runtime.store.AgentProfile;
import dev.stockade.runtime.store.AgentStore;
import dev.stockade.runtime.webhook.EventTypes;
import dev.stockade.runtime.webhook.PromptTemplate;
import dev.stockade.runtime.webhook.Subscription;
import dev.stockade.runtime.webhook.WebhookStore;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The webhooks page: the receiver toggle, the subscriptions with their Active switch, and the form that creates one
 * (Events list, delivery target, deliver-only, Prompt template) with a preview. The preview is rendered here, on the
 * server, by the renderer deliveries use ({@link PromptTemplate#forDelivery}), against a sample payload.
 */
final class WebhookPages {
    /** The sample payload the preview starts with: the shape a repository host's push event has. */
    static final String SAMPLE = "{\n  \"event_type\": \"push\",\n  \"ref\": \"refs/heads/main\",\n"
            + "  \"repository\": {\"full_name\": \"acme/shop\"},\n  \"pusher\": {\"name\": \"ada\"},\n"
            + "  \"commits\": [{\"message\": \"Fix checkout\"}]\n}";

    private final AgentStore agents;
    private final WebhookStore webhooks;

    WebhookPages(AgentStore agents, WebhookStore webhooks) {
        this.agents = agents;
        this.webhooks = webhooks;
    }

    void routes(Router r) {
        r.add("GET", "/webhooks", req -> page());
        r.add("POST", "/agents/webhook-preview", WebhookPages::preview);
    }

    private Response page() throws Exception {
        AgentProfile p = agents.profile();
        StringBuilder body = new StringBuilder("<h1>Webhooks</h1><p><label class=\"switch\"><input type=\"checkbox\" "
                + "id=\"receiver\" data-api=\"PATCH agents/webhook-receiver\" data-field=\"enabled\"")
                .append(webhooks.receiverEnabled() ? " checked" : "").append("> Receiver enabled</label></p>")
                .append("<table id=\"subscriptions\"><thead><tr><th>Name</th><th>Path</th><th>Events</th><th>Deliver to</th>"
                        + "<th>Deliver only</th><th>Active</th></tr></thead><tbody>");
        for (Subscription s : webhooks.list()) {
            body.append("<tr data-name=\"").append(Html.text(s.name())).append("\"><td>").append(Html.text(s.name()))
                    .append("<br><small>").append(Html.text(s.description())).append("</small></td><td><code>")
                    .append(Html.text("agents/webhooks/" + s.name())).append("</code></td><td>")
                    .append(s.events().isEmpty() ? "all" : Html.text(String.join(", ", s.events()))).append("</td><td>")
                    .append(s.deliverTo().wire()).append("</td><td>").append(s.deliverOnly() ? "yes" : "no")
                    .append("</td><td><input type=\"checkbox\" class=\"active\" data-field=\"active\" data-api=\"PATCH ")
                    .append(Html.text("agents/webhook-subscriptions/" + s.name())).append('"')
                    .append(s.active() ? " checked" : "").append("></td></tr>");
        }
        body.append("</tbody></table>").append(form());
        return Html.page(Html.Page.WEBHOOKS, "./", p.name(), p.lockedIn(), body.toString());
    }

    private static String form() {
        StringBuilder targets = new StringBuilder();
        for (DeliverTo d : DeliverTo.values()) {
            targets.append("<option value=\"").append(d.wire()).append("\">").append(label(d)).append("</option>");
        }
        return "<h2>New subscription</h2><form id=\"new-subscription\" data-api=\"POST agents/webhook-subscriptions\">"
                + Html.field("name", "Name", "", "lowercase letters, digits, - and _; becomes agents/webhooks/<name>")
                + Html.field("description", "Description", "", null)
                + Html.field("events", "Events", "", "comma-separated event types; empty accepts all")
                + "<label>Deliver to <select name=\"deliverTo\">" + targets + "</select></label>"
                + Html.checkbox("deliverOnly", "Deliver only (post the rendered template, no agent run)", false)
                + Html.checkbox("active", "Active", true)
                + "<label>Prompt template <textarea name=\"prompt\" rows=\"4\" placeholder=\"{repository.full_name}: "
                + "{__raw__}\"></textarea></label>"
                + "<label>Sample payload <textarea name=\"samplePayload\" data-local rows=\"6\">" + Html.text(SAMPLE)
                + "</textarea></label><button type=\"button\" id=\"preview-button\">Preview</button>"
                + "<pre id=\"preview\"></pre><button type=\"submit\">Create</button></form>";
    }

    private static String label(DeliverTo d) {
        switch (d) {
            case ALL: return "All channels";
            case CHAT: return "Chat";
            default: return "Slack";
        }
    }

    /**
     * {@code POST /agents/webhook-preview} {@code {name, prompt, deliverOnly, payload}}: the message a delivery of
     * {@code payload} (a JSON object given as text, read by the strict reader like a webhook body) would carry.
     */
    static Response preview(Request req) {
        JsonNode b = req.jsonObject();
        String payloadText = b.path("payload").isTextual() ? b.get("payload").asText() : null;
        if (payloadText == null || !b.path("prompt").isTextual()) {
            throw new HttpProblem(400, "invalid-field", "`prompt` and `payload` must be strings");
        }
        JsonNode payload;
        try {
            payload = StrictJson.object(payloadText.getBytes(StandardCharsets.UTF_8));
        } catch (MalformedJson e) {
            throw new HttpProblem(400, "invalid-sample", "the sample payload " + e.getMessage());
        }
        String name = Subscription.slug(b.path("name").asText(""));
        Subscription sub = new Subscription(name == null ? "<name>" : name, "", List.of(), DeliverTo.ALL,
                b.path("deliverOnly").asBoolean(false), b.get("prompt").asText(), true);
        String event = EventTypes.resolve(h -> null, payload);
        return Response.json(200, Map.of("event", event, "text", PromptTemplate.forDelivery(sub, event, payload)));
    }
}
