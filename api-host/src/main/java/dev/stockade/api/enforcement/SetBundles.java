package dev.stockade.api.enforcement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.proxy.feed.DocumentHash;
import dev.stockade.proxy.feed.SetPart;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The stored form of one batch's sets ({@code sandbox_enforcement.bundle}): each document by the hash of its text,
 * each shared list by name ({@code {"shared": name}}), credentials by id. Collects, while it builds them, the texts to
 * store once and the shared lists' documents by hash; reads a stored list of parts back.
 */
final class SetBundles {
    /** A set's stored bundle, and the hash of its own document when it has one. */
    record Bundle(ObjectNode bundle, DocumentHash own) {
    }

    private final ObjectMapper json;
    private final Map<DocumentHash, String> texts = new LinkedHashMap<>();
    private final Map<String, EnforcementStore.SharedList> lists = new LinkedHashMap<>();
    private final Map<JsonNode, DocumentHash> hashed = new IdentityHashMap<>(); // a shared policy is one node

    SetBundles(ObjectMapper json) {
        this.json = json;
    }

    /** The documents met so far, by hash, to store. */
    Map<DocumentHash, String> texts() {
        return texts;
    }

    /** The shared lists met so far, by name, with their documents by hash. */
    Map<String, EnforcementStore.SharedList> lists() {
        return lists;
    }

    Bundle bundle(SandboxEnforcement e) {
        ObjectNode b = json.createObjectNode();
        ArrayNode grants = b.putArray("grants");
        parts(grants, e.orgId(), e.grants());
        DocumentHash own = null;
        if (e.own() instanceof OwnDocument.Tree tree) {
            own = hash(tree.json());
        } else if (e.own() instanceof OwnDocument.Stored stored) {
            own = stored.hash(); // its text was stored with the first set of the sandbox's revision
        }
        if (own != null) {
            grants.add(own.hex());
        }
        parts(b.putArray("ceiling"), e.orgId(), e.ceiling());
        ArrayNode credentials = b.putArray("credentials");
        e.credentials().forEach(id -> credentials.add(id.toString()));
        return new Bundle(b, own);
    }

    /** A shared list to store, its documents hashed (and their texts kept to store). */
    EnforcementStore.SharedList list(EnforcementStore.SharedDocuments l) {
        return new EnforcementStore.SharedList(l.name(), l.orgId(), l.documents().stream().map(this::hash).toList());
    }

    private void parts(ArrayNode into, UUID orgId, List<SandboxEnforcement.Part> parts) {
        for (SandboxEnforcement.Part p : parts) {
            if (p.shared() == null) {
                p.documents().forEach(d -> into.add(hash(d).hex()));
            } else {
                into.addObject().put("shared", p.shared());
                lists.computeIfAbsent(p.shared(), name -> new EnforcementStore.SharedList(name, orgId,
                        p.documents().stream().map(this::hash).toList()));
            }
        }
    }

    private DocumentHash hash(JsonNode doc) {
        return hashed.computeIfAbsent(doc, d -> {
            String text = d.toString();
            DocumentHash h = DocumentHash.of(text);
            texts.putIfAbsent(h, text);
            return h;
        });
    }

    /** A stored list of parts: a hash for a document, {@code {"shared": name}} for a shared list. */
    static List<SetPart> parts(JsonNode list) {
        List<SetPart> out = new ArrayList<>(list.size());
        list.forEach(p -> out.add(p.isObject() ? new SetPart.Shared(p.path("shared").asText())
                : new SetPart.Document(new DocumentHash(p.asText()))));
        return out;
    }

    /** A stored JSON text (a bundle, a list of hashes) as a tree. */
    static JsonNode tree(ObjectMapper json, String text) {
        try {
            return json.readTree(text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("a stored enforcement bundle or list is not JSON", e);
        }
    }

    static List<DocumentHash> hashes(JsonNode list) {
        List<DocumentHash> out = new ArrayList<>(list.size());
        list.forEach(h -> out.add(new DocumentHash(h.asText())));
        return out;
    }
}
