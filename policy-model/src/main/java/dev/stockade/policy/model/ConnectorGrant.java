package dev.stockade.policy.model;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * An element of {@code connectors}: exactly the named tools of one connector. Ids are kept as the text
 * the author wrote (validated as UUIDs) so that writing back is the identity.
 */
public record ConnectorGrant(String connectorId, List<String> allowedTools, String credentialId) {

    /** Copies the tools (absent stays {@code null}, as the document said nothing), so the grant stays immutable. */
    public ConnectorGrant {
        allowedTools = Lists.copyOrNull(allowedTools);
    }

    /** The connector id as a UUID; empty when it is not one in canonical form (validation reports it). */
    public Optional<UUID> connector() {
        return CanonicalUuid.parse(connectorId);
    }

    /** The credential id as a UUID; empty when absent or not one in canonical form. */
    public Optional<UUID> credential() {
        return CanonicalUuid.parse(credentialId);
    }
}
