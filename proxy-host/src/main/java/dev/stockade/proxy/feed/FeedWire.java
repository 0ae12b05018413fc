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
import java.util.function.Function;

/**
 * The proxy feed's wire format: server-sent events on {@code GET /v1/egress/feed?after=VERSION[&wire=2]}, written by
 * the platform and read by {@link ControlPlaneSource}. Events, each one {@code data:} line of JSON:
 * <ul>
 *   <li>{@code halted}: {@code {"orgs":[...]}}, the whole set of halted organizations (on connect and on every
 *       change);</li>
 *   <li>{@code document} (wire 2): {@code {"sha256":"...","text":"..."}}, a policy document, sent once per feed
 *       before the first set that lists it (a replica that lacks one fetches it by hash);</li>
 *   <li>{@code set} (wire 2, with {@code id:} the version): a {@link SandboxSet} naming its documents by hash;</li>
 *   <li>{@code sandbox} (wire 1, the default, with {@code id:} the version): a set with its documents whole, for
 *       replicas that predate wire 2;</li>
 *   <li>{@code removed} (with {@code id:} the version): {@code {"version":N,"sandboxId":"..."}};</li>
 *   <li>{@code ready}: {@code {"version":N}}, sent once the changes that existed at connect time are sent;</li>
 *   <li>comments ({@code : ping}) keep an idle stream alive.</li>
 * </ul>
 * A version is increasing across every sandbox; a reader resumes with {@code after=} the last version it applied.
 */
public final class FeedWire {
    public static final String HALTED = "halted";
    public static final String DOCUMENT = "document";
    public static final String SET = "set";
    public static final String SANDBOX = "sandbox";
    public static final String REMOVED = "removed";
    public static final String READY = "ready";
    /** The wire a replica asks for with {@code wire=}: documents by hash. Without it, the whole-set wire 1. */
    public static final int BY_HASH = 2;

    private static final ObjectMapper JSON = new ObjectMapper();

    private FeedWire() {
    }

    /** A policy document sent by hash, as a {@code document} event carries it. */
    public record Document(DocumentHash hash, String text) {
    }

    /** One server-sent event, framed ({@code id} omitted when negative). */
    public static String event(String name, long id, JsonNode data) {
        return SseWriter.frame(new SseEvent(name, data.toString(), id >= 0 ? Long.toString(id) : null));
    }

    /** A {@code set} event's data: the set with its documents' hashes. */
    public static ObjectNode set(SandboxSet s) {
        ObjectNode n = head(s);
        ArrayNode grants = n.putArray("grants");
        s.grants().forEach(h -> grants.add(h.hex()));
        ArrayNode ceiling = n.putArray("ceiling");
        s.ceiling().forEach(h -> ceiling.add(h.hex()));
        return credentials(n, s);
    }

    /** A {@code sandbox} event's data (wire 1): the set with each document whole, its text found by hash. */
    public static ObjectNode sandbox(SandboxSet s, Function<DocumentHash, String> texts) {
        ObjectNode n = head(s);
        ArrayNode grants = n.putArray("grants");
        s.grants().forEach(h -> grants.add(parse(texts.apply(h))));
        ArrayNode ceiling = n.putArray("ceiling");
        s.ceiling().forEach(h -> ceiling.add(parse(texts.apply(h))));
        return credentials(n, s);
    }

    public static ObjectNode document(DocumentHash hash, String text) {
        return JSON.createObjectNode().put("sha256", hash.hex()).put("text", text);
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

    /** Reads a {@code set} event's data; an {@link IllegalArgumentException} names what is missing or malformed. */
    public static SandboxSet readSet(JsonNode n) {
        return new SandboxSet(n.path("version").asLong(), text(n, "sandboxId"), text(n, "orgId"),
                text(n, "projectId"), text(n, "tokenSha256"), hashes(n, "grants"), hashes(n, "ceiling"),
                readCredentials(n));
    }

    /**
     * Reads a {@code sandbox} event's data (wire 1): its documents go to {@code documents} and the set names them by
     * hash, as a {@code set} would. An {@link IllegalArgumentException} names what is missing.
     */
    public static SandboxSet readSandbox(JsonNode n, PolicyDocuments documents) {
        List<DocumentHash> grants = new ArrayList<>();
        n.path("grants").forEach(d -> grants.add(documents.offer(d.toString())));
        List<DocumentHash> ceiling = new ArrayList<>();
        n.path("ceiling").forEach(d -> ceiling.add(documents.offer(d.toString())));
        return new SandboxSet(n.path("version").asLong(), text(n, "sandboxId"), text(n, "orgId"),
                text(n, "projectId"), text(n, "tokenSha256"), grants, ceiling, readCredentials(n));
    }

    /** Reads a {@code document} event's data (the text is checked against its hash where it is kept). */
    public static Document readDocument(JsonNode n) {
        return new Document(new DocumentHash(text(n, "sha256")), text(n, "text"));
    }

    public static Set<String> readHalted(JsonNode n) {
        Set<String> out = new LinkedHashSet<>();
        n.path("orgs").forEach(o -> out.add(o.asText()));
        return out;
    }

    static JsonNode parse(String data) {
        if (data == null) {
            throw new IllegalArgumentException("feed event data is missing");
        }
        try {
            return JSON.readTree(data);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("feed event data is not JSON");
        }
    }

    private static ObjectNode head(SandboxSet s) {
        return JSON.createObjectNode().put("version", s.version()).put("sandboxId", s.sandboxId())
                .put("orgId", s.orgId()).put("projectId", s.projectId()).put("tokenSha256", s.tokenSha256());
    }

    private static ObjectNode credentials(ObjectNode n, SandboxSet s) {
        ArrayNode creds = n.putArray("credentials");
        for (SandboxSet.CredentialSpec c : s.credentials()) {
            ObjectNode cn = creds.addObject().put("name", c.name()).put("headerFormat", c.headerFormat())
                    .put("secret", c.secret());
            c.domains().forEach(cn.putArray("domains")::add);
        }
        return n;
    }

    private static List<SandboxSet.CredentialSpec> readCredentials(JsonNode n) {
        List<SandboxSet.CredentialSpec> creds = new ArrayList<>();
        for (JsonNode c : n.path("credentials")) {
            List<String> domains = new ArrayList<>();
            c.path("domains").forEach(d -> domains.add(d.asText()));
            JsonNode format = c.get("headerFormat");
            creds.add(new SandboxSet.CredentialSpec(text(c, "name"), domains,
                    format == null || format.isNull() ? null : format.asText(), text(c, "secret")));
        }
        return creds;
    }

    private static List<DocumentHash> hashes(JsonNode n, String field) {
        JsonNode list = n.get(field);
        if (list == null || !list.isArray()) {
            throw new IllegalArgumentException("feed event lacks `" + field + "`");
        }
        List<DocumentHash> out = new ArrayList<>(list.size());
        for (JsonNode h : list) {
            try {
                out.add(new DocumentHash(h.asText()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("`" + field + "` holds something other than a document hash");
            }
        }
        return out;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw new IllegalArgumentException("feed event lacks `" + field + "`");
        }
        return v.asText();
    }
}
