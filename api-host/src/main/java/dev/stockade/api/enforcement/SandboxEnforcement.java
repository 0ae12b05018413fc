package dev.stockade.api.enforcement;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.UUID;

/**
 * What one sandbox's egress proxy enforces: the policy documents that reach it (in attachment order, the embedded
 * policy last), the org ceiling's documents, and the credentials it may use (by id; the proxy feed fetches their
 * material through {@link CredentialMaterials}). The proxy resolves and compiles them with the core, exactly as
 * {@code GET .../effective-policy} shows them.
 *
 * @param sandboxId   the sandbox
 * @param orgId       its organization (a halt of the org denies everything regardless of the documents)
 * @param projectId   its project
 * @param tokenHash   SHA-256 of the token the sandbox presents in {@code Proxy-Authorization} (its sandbox token)
 * @param revision    the sandbox revision these documents belong to
 * @param grants      the policy documents, as the core normalised them (JSON), each alone or in a shared list;
 *                    without the embedded policy when {@code own} is set
 * @param ceiling     the org ceiling's policy documents (JSON), as a shared list or each alone
 * @param credentials ids of the credentials bound to the sandbox (project-owned and sandbox-owned)
 * @param own         the embedded policy, published after {@code grants} and remembered with {@code revision};
 *                    {@code null} when {@code grants} already ends with it (nothing is remembered)
 */
public record SandboxEnforcement(
        UUID sandboxId,
        UUID orgId,
        UUID projectId,
        byte[] tokenHash,
        int revision,
        List<Part> grants,
        List<Part> ceiling,
        List<UUID> credentials,
        OwnDocument own) {

    /**
     * Documents a set lists: a shared list by name ({@code policy:<id>}, {@code ceiling:<orgId>}) with its documents
     * now, stored once and sent once per change for every set naming it; or, with {@code shared} null, one document of
     * this set alone.
     */
    public record Part(String shared, List<JsonNode> documents) {
        public Part {
            documents = List.copyOf(documents);
        }

        public static Part document(JsonNode document) {
            return new Part(null, List.of(document));
        }

        public static Part shared(String name, List<JsonNode> documents) {
            return new Part(name, documents);
        }
    }

    public SandboxEnforcement {
        grants = List.copyOf(grants);
        ceiling = List.copyOf(ceiling);
        credentials = List.copyOf(credentials);
    }

    /**
     * A set whose grants carry every document alone, the embedded policy included (its hash is not remembered), and
     * no shared list.
     */
    public SandboxEnforcement(UUID sandboxId, UUID orgId, UUID projectId, byte[] tokenHash, int revision,
                              List<JsonNode> grants, List<JsonNode> ceiling, List<UUID> credentials) {
        this(sandboxId, orgId, projectId, tokenHash, revision, grants.stream().map(Part::document).toList(),
                ceiling.stream().map(Part::document).toList(), credentials, null);
    }

    /** The grants' documents in order, shared lists expanded. */
    public List<JsonNode> grantDocuments() {
        return grants.stream().flatMap(p -> p.documents().stream()).toList();
    }

    /** The ceiling's documents in order, shared lists expanded. */
    public List<JsonNode> ceilingDocuments() {
        return ceiling.stream().flatMap(p -> p.documents().stream()).toList();
    }
}
