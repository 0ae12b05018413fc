package dev.stockade.proxy.feed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.host.sse.SseEvent;
import dev.stockade.host.sse.SseWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The proxy feed's wire format: server-sent events on {@code GET /v1/egress/feed?after=VERSION}, written by the
 * platform and read by {@link ControlPlaneSource}. Events, each one {@code data:} line of JSON:
 * <ul>
 *   <li>{@code halted}: {@code {"orgs":[...]}}, the whole set of halted organizations (on connect and on every
 *       change);</li>
 *   <li>{@code sandbox} (with {@code id:} the version): a {@link SandboxSet};</li>
 *   <li>{@code removed} (with {@code id:} the version): {@code {"version":N,"sandboxId":"..."}};</li>
 *   <li>{@code ready}: {@code {"version":N}}, sent once the changes that existed at connect time are sent;</li>
 *   <li>comments ({@code : ping}) keep an idle stream alive.</li>
 * </ul>
 * A version is increasing across every sandbox; a reader resumes with {@code after=} the last version it applied.
 */
public final class FeedWire {
    public static final String HALTED = "halted";
    public static final String SANDBOX = "sandbox";
    public static final String REMOVED = "removed";
    public static final String READY = "ready";

    private static final ObjectMapper JSON = new ObjectMapper();

    private FeedWire() {
    }

    /** One server-sent event, framed ({@code id} omitted when negative). */
    public static String event(String name, long id, JsonNode data) {
        return SseWriter.frame(new SseEvent(name, data.toString(), id >= 0 ? Long.toString(id) : null));
    }

    public static ObjectNode sandbox(SandboxSet s) {
        ObjectNode n = JSON.createObjectNode();
        n.put("version", s.version()).put("sandboxId", s.sandboxId()).put("orgId", s.orgId())
                .put("projectId", s.projectId()).put("tokenSha256", s.tokenSha256());
        s.grants().forEach(n.putArray("grants")::add);
        s.ceiling().forEach(n.putArray("ceiling")::add);
        ArrayNode creds = n.putArray("credentials");
        for (SandboxSet.CredentialSpec c : s.credentials()) {
            ObjectNode cn = creds.addObject().put("name", c.name()).put("headerFormat", c.headerFormat())
                    .put("secret", c.secret());
            c.domains().forEach(cn.putArray("domains")::add);
        }
        return n;
    }

    public static ObjectNode removed(long version, String sandboxId) {
        return JSON.createObjectNode().put("version", version).put("sandboxId", sandboxId);
    }

    public static ObjectNode halted(Set<String> orgs) {
        ObjectNode n = JSON.createObjectNode();
        orgs.stream().sorted().forEach(n.putArray("orgs")::add);
        return n;
    }

    public static ObjectNode ready(long version) {
        return JSON.createObjectNode().put("version", version);
    }

    /** Reads a {@code sandbox} event's data; an {@link IllegalArgumentException} names what is missing. */
    public static SandboxSet readSandbox(JsonNode n) {
        List<SandboxSet.CredentialSpec> creds = new ArrayList<>();
        for (JsonNode c : n.path("credentials")) {
            List<String> domains = new ArrayList<>();
            c.path("domains").forEach(d -> domains.add(d.asText()));
            JsonNode format = c.get("headerFormat");
            creds.add(new SandboxSet.CredentialSpec(text(c, "name"), domains,
                    format == null || format.isNull() ? null : format.asText(), text(c, "secret")));
        }
        List<JsonNode> grants = new ArrayList<>();
        n.path("grants").forEach(grants::add);
        List<JsonNode> ceiling = new ArrayList<>();
        n.path("ceiling").forEach(ceiling::add);
        return new SandboxSet(n.path("version").asLong(), text(n, "sandboxId"), text(n, "orgId"),
                text(n, "projectId"), text(n, "tokenSha256"), grants, ceiling, creds);
    }

    public static Set<String> readHalted(JsonNode n) {
        Set<String> out = new LinkedHashSet<>();
        n.path("orgs").forEach(o -> out.add(o.asText()));
        return out;
    }

    static JsonNode parse(String data) {
        try {
            return JSON.readTree(data);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("feed event data is not JSON");
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw new IllegalArgumentException("feed event lacks `" + field + "`");
        }
        return v.asText();
    }
}
