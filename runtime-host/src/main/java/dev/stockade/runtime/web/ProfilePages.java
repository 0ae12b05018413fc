package dev.stockade.runtime.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.agent.DocumentKind;
import dev.stockade.runtime.agent.Documents;
import dev.stockade.runtime.agent.Memory;
import dev.stockade.runtime.http.HttpProblem;
import dev.stockade.runtime.http.Request;
import dev.stockade.runtime.http.Response;
import dev.stockade.runtime.http.Router;
import dev.stockade.runtime.store.AgentProfile;
import dev.stockade.runtime.store.AgentStore;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The profile page (model overrides, heartbeat interval, timezone, heartbeat and cron models, verbose, the lock) with
 * its {@code PATCH /agents/profile}, and the read-only documents and memory pages. Documents are browsed, not edited,
 * here: the agent writes them, and the lock guards exactly those writes.
 */
final class ProfilePages {
    /** The model id rule of the {@code /model} commands and the settings file's seeds. */
    static final Pattern MODEL_ID = Pattern.compile("[A-Za-z0-9._:/@-]{1,200}");
    /** Longest heartbeat interval, as the agent's update_settings tool allows: one week. */
    static final int MAX_INTERVAL = 7 * 24 * 60;

    /** The three model override slots, their profile field and the store's name for them. */
    enum ModelSlot {
        MAIN("modelId", "main", "Main model"), HEARTBEAT("heartbeatModelId", "heartbeat", "Heartbeat model"),
        CRON("cronModelId", "cron", "Cron task model");

        final String field;
        final String slot;
        final String label;

        ModelSlot(String field, String slot, String label) {
            this.field = field;
            this.slot = slot;
            this.label = label;
        }
    }

    private final AgentStore agents;
    private final Documents docs;
    private final Memory memory;

    ProfilePages(AgentStore agents, Documents docs, Memory memory) {
        this.agents = agents;
        this.docs = docs;
        this.memory = memory;
    }

    void routes(Router r) {
        r.add("GET", "/profile", req -> profile());
        r.add("PATCH", "/agents/profile", this::patch);
        r.add("GET", "/documents", req -> documents());
        r.add("GET", "/memory", req -> memory());
    }

    private Response profile() throws Exception {
        AgentProfile p = agents.profile();
        StringBuilder f = new StringBuilder("<h1>Profile</h1><form data-api=\"PATCH agents/profile\" id=\"profile\">");
        for (ModelSlot s : ModelSlot.values()) {
            String value = s == ModelSlot.MAIN ? p.modelOverride() : s == ModelSlot.HEARTBEAT
                    ? p.heartbeatModelOverride() : p.cronModelOverride();
            f.append(Html.field(s.field, s.label, value, s == ModelSlot.MAIN ? "empty: the environment's default"
                    : "empty: the main model"));
        }
        f.append("<label>Heartbeat interval (minutes, 0 off) <input type=\"number\" min=\"0\" max=\"").append(MAX_INTERVAL)
                .append("\" name=\"heartbeatIntervalMinutes\" value=\"").append(p.heartbeatIntervalMinutes())
                .append("\"></label>").append(Html.field("timezone", "Timezone", p.timezone(), "an IANA zone"))
                .append("<button type=\"submit\">Save</button></form>")
                .append("<p>Verbose and the lock are the switches on the chat page and in the header.</p>");
        return Html.page(Html.Page.PROFILE, "./", p.name(), p.lockedIn(), f.toString());
    }

    /** Validates every given field first, then writes them: a request with one bad field changes nothing. */
    private Response patch(Request req) throws Exception {
        JsonNode b = req.jsonObject();
        Map<ModelSlot, String> models = new LinkedHashMap<>();
        for (ModelSlot s : ModelSlot.values()) {
            if (b.has(s.field)) {
                String v = text(b, s.field).strip();
                if (!v.isEmpty() && !MODEL_ID.matcher(v).matches()) {
                    throw new HttpProblem(400, "invalid-model", "`" + s.field + "` must be a model id without spaces "
                            + "or special characters, or empty for the default");
                }
                models.put(s, v);
            }
        }
        Integer interval = null;
        if (b.has("heartbeatIntervalMinutes")) {
            JsonNode n = b.get("heartbeatIntervalMinutes");
            if (!n.canConvertToInt() || !n.isIntegralNumber() || n.asInt() < 0 || n.asInt() > MAX_INTERVAL) {
                throw new HttpProblem(400, "invalid-interval", "`heartbeatIntervalMinutes` must be a whole number "
                        + "from 0 (off) to " + MAX_INTERVAL);
            }
            interval = n.asInt();
        }
        String zone = b.has("timezone") ? zone(text(b, "timezone")) : null;
        for (Map.Entry<ModelSlot, String> m : models.entrySet()) {
            agents.setModel(m.getKey().slot, m.getValue().isEmpty() ? null : m.getValue());
        }
        if (interval != null) {
            agents.setHeartbeatInterval(interval);
        }
        if (zone != null) {
            agents.setTimezone(zone);
        }
        return Response.json(200, Map.of("ok", true));
    }

    private static String zone(String requested) {
        try {
            return ZoneId.of(requested.strip()).getId();
        } catch (DateTimeException e) {
            throw new HttpProblem(400, "invalid-timezone", "`timezone` must be an IANA zone such as Europe/Berlin");
        }
    }

    private static String text(JsonNode b, String field) {
        if (!b.get(field).isTextual()) {
            throw new HttpProblem(400, "invalid-field", "`" + field + "` must be a string");
        }
        return b.get(field).asText();
    }

    private Response documents() throws Exception {
        AgentProfile p = agents.profile();
        StringBuilder body = new StringBuilder("<h1>Documents</h1>");
        if (p.lockedIn()) {
            body.append("<p class=\"notice\">Locked: the agent cannot change these documents (the Agent Guide is "
                    + "read-only in both modes).</p>");
        }
        for (DocumentKind k : DocumentKind.values()) {
            String text = docs.read(k);
            body.append("<section class=\"doc\" id=\"doc-").append(k.wire()).append("\"><h2>").append(k.title())
                    .append("</h2><pre>").append(text.isBlank() ? "(empty)" : Html.text(text)).append("</pre></section>");
        }
        return Html.page(Html.Page.DOCUMENTS, "./", p.name(), p.lockedIn(), body.toString());
    }

    private Response memory() throws Exception {
        AgentProfile p = agents.profile();
        String body = "<h1>Memory</h1><p>" + memory.count() + " entries.</p>"
                + "<form data-api=\"POST agents/memory/search\" data-show=\"results\" id=\"memory-search\">"
                + "<label>Search <input name=\"query\" required></label><button type=\"submit\">Search</button></form>"
                + "<ol id=\"results\"></ol>";
        return Html.page(Html.Page.MEMORY, "./", p.name(), p.lockedIn(), body);
    }
}
