package dev.stockade.policy.model;

import java.util.List;

/**
 * An element of {@code connectors}: exactly the named tools of one connector. Ids are kept as the text
 * the author wrote (validated as UUIDs) so that writing back is the identity.
 */
public record ConnectorGrant(String connectorId, List<String> allowedTools, String credentialId) {

    public ConnectorGrant {
        allowedTools = Lists.copyOrNull(allowedTools);
    }
}
