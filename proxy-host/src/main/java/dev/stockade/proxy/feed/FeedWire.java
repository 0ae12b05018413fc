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
 *   <li>{@code set} (wire 2, with {@code id:} the version): a {@link SandboxSet} naming its documents by hash; on
 *       wire 3 a {@link SandboxParts}: each entry of {@code grants} and {@code ceiling} is a document's hash or
 *       {@code {"shared":"NAME"}}, a shared list;</li>
 *   <li>{@code shared} (wire 3): {@code {"name":"...","orgId":"...","documents":[hash...]}}, a shared list's
 *       documents, sent before the first set naming it and on every change (then with {@code "version"} and
 *       {@code id:}); a follower resolves again every set naming it;</li>
 *   <li>{@code sandbox} (wire 1, the default, with {@code id:} the version): a set with its documents whole, for
 *       replicas that predate wire 2;</li>
 *   <li>{@code removed} (with {@code id:} the version): {@code {"version":N,"sandboxId":"..."}};</li>
 *   <li>{@code ready}: {@code {"version":N}}, sent once the changes that existed at connect time are sent;</li>
 *   <li>comments ({@code : ping}) keep an idle stream alive.</li>
 * </ul>
 * A version is increasing across every sandbox and shared list; a reader resumes with {@code after=} the last version
 * it applied (a {@code shared} event sent ahead of a set carries no version and moves nothing).
 */
public final class FeedWire {
    public static final String HALTED = "halted";
    public static final String DOCUMENT = "document";
    public static final String SET = "set";
    public static final String SHARED = "shared";
    public static final String SANDBOX = "sandbox";
    public static final String REMOVED = "removed";
    public static final String READY = "ready";
    /** The wire a replica asks for with {@code wire=}: documents by hash. Without it, the whole-set wire 1. */
    public static final int BY_HASH = 2;
    /** The wire with shared lists: a shared policy's change is one {@code shared} event, not a set per sandbox. */
    public static final int SHARED_LISTS = 3;

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
        return credentials(n, s.credentials());
    }

    /** A {@code set} event's data on wire 3: the set's parts, documents by hash and shared lists by name. */
    public static ObjectNode parts(SandboxParts s) {
        ObjectNode n = JSON.createObjectNode().put("version", s.version()).put("sandboxId", s.sandboxId())
                .put("orgId", s.orgId()).put("projectId", s.projectId()).put("tokenSha256", s.tokenSha256());
        writeParts(n.putArray("grants"), s.grants());
        writeParts(n.putArray("ceiling"), s.ceiling());
        return credentials(n, s.credentials());
    }

    /**
     * A {@code shared} event's data: a list's documents; {@code version} is the change's (a row of the feed) or
     * negative for a list sent ahead of the first set naming it (no version: it moves no reader's position).
     */
    public static ObjectNode shared(String name, String orgId, long version, List<DocumentHash> documents) {
        ObjectNode n = JSON.createObjectNode();
        if (version >= 0) {
            n.put("version", version);
        }
        n.put("name", name).put("orgId", orgId);
        ArrayNode docs = n.putArray("documents");
        documents.forEach(h -> docs.add(h.hex()));
        return n;
    }

    /** A {@code shared} event as read: the version is negative when the event carried none. */
    public record Shared(String name, long version, List<DocumentHash> documents) {
    }

    public static Shared readShared(JsonNode n) {
        JsonNode v = n.get("version");
        return new Shared(new SetPart.Shared(text(n, "name")).name(), v != null && v.canConvertToLong() ? v.asLong()
                : -1, hashes(n, "documents"));
    }

    /** Reads a wire-3 {@code set} event's data; an {@link IllegalArgumentException} names what is malformed. */
    public static SandboxParts readParts(JsonNode n) {
        return new SandboxParts(n.path("version").asLong(), text(n, "sandboxId"), text(n, "orgId"),
                text(n, "projectId"), text(n, "tokenSha256"), readParts(n, "grants"), readParts(n, "ceiling"),
                readCredentials(n));
    }

    private static void writeParts(ArrayNode into, List<SetPart> parts) {
        for (SetPart p : parts) {
            if (p instanceof SetPart.Document d) {
                into.add(d.hash().hex());
            } else if (p instanceof SetPart.Shared sh) {
                into.addObject().put("shared", sh.name());
            }
        }
    }

    private static List<SetPart> readParts(JsonNode n, String field) {
        JsonNode list = n.get(field);
        if (list == null || !list.isArray()) {
            throw new IllegalArgumentException("feed event lacks `" + field + "`");
        }
        List<SetPart> out = new ArrayList<>(list.size());
        for (JsonNode p : list) {
            JsonNode shared = p.get("shared");
            try {
                out.add(shared != null && shared.isTextual() ? new SetPart.Shared(shared.asText())
                        : new SetPart.Document(new DocumentHash(p.asText())));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("`" + field + "` holds something other than a document hash or a"
                        + " shared list");
            }
        }
        return out;
    }

    /** A {@code sandbox} event's data (wire 1): the set with each document whole, its text found by hash. */
    public static ObjectNode sandbox(SandboxSet s, Function<DocumentHash, String> texts) {
        ObjectNode n = head(s);
        ArrayNode grants = n.putArray("grants");
        s.grants().forEach(h -> grants.add(parse(texts.apply(h))));
        ArrayNode ceiling = n.putArray("ceiling");
        s.ceiling().forEach(h -> ceiling.add(parse(texts.apply(h))));
        return credentials(n, s.credentials());
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

    private static ObjectNode credentials(ObjectNode n, List<SandboxSet.CredentialSpec> all) {
        ArrayNode creds = n.putArray("credentials");
        for (SandboxSet.CredentialSpec c : all) {
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
