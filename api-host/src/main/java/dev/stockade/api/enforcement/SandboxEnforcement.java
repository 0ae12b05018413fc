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
 * @param grants      the policy documents, as the core normalised them (JSON); without the embedded policy when
 *                    {@code own} is set
 * @param ceiling     the org ceiling's policy documents (JSON)
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
        List<JsonNode> grants,
        List<JsonNode> ceiling,
        List<UUID> credentials,
        OwnDocument own) {

    public SandboxEnforcement {
        grants = List.copyOf(grants);
        ceiling = List.copyOf(ceiling);
        credentials = List.copyOf(credentials);
    }

    /** A set whose grants carry every document, the embedded policy included (its hash is not remembered). */
    public SandboxEnforcement(UUID sandboxId, UUID orgId, UUID projectId, byte[] tokenHash, int revision,
                              List<JsonNode> grants, List<JsonNode> ceiling, List<UUID> credentials) {
        this(sandboxId, orgId, projectId, tokenHash, revision, grants, ceiling, credentials, null);
    }
}
