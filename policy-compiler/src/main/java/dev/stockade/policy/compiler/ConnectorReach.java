package dev.stockade.policy.compiler;

import dev.stockade.policy.model.ConnectorGrant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The merge of connector grants across the projects a caller reaches (the MCP endpoint lists one caller's tools from
 * every project it is a member of): within a project, resolution already intersected the policies' tools; across
 * projects, what any project grants is granted (each project's grants stand on their own, as each project's sandboxes
 * do), and a halted organization grants nothing. A pure function of the resolved grants the host passes in.
 */
public final class ConnectorReach {
    private ConnectorReach() {
    }

    /**
     * One project's resolved connector grants ({@link Resolution#connectorGrants}).
     *
     * @param orgId     the project's organization
     * @param projectId the project
     * @param grants    its grants, one per connector
     */
    public record ProjectGrants(UUID orgId, UUID projectId, List<ConnectorGrant> grants) {
        /** Copies the grants, so a caller's later change of its list cannot reach this record. */
        public ProjectGrants {
            Objects.requireNonNull(orgId, "orgId");
            grants = grants == null ? List.of() : List.copyOf(grants);
        }
    }

    /**
     * A connector the caller is granted, with the tools granted by name.
     *
     * @param orgId        the organization whose connector it is (a connector id is looked up in it only)
     * @param connectorId  the connector
     * @param tools        exact tool names, in the order first granted; empty grants nothing
     * @param credentialId the connector credential the first project naming one chose, empty when none did
     */
    public record GrantedConnector(UUID orgId, UUID connectorId, List<String> tools, Optional<UUID> credentialId) {
        /** Copies the tools, so the record stays immutable. */
        public GrantedConnector {
            tools = List.copyOf(tools);
        }
    }

    /**
     * The connectors granted across {@code projects} (in the caller's project order), without those of an organization
     * in {@code haltedOrgs}: per organization and connector, the union of the tools each project grants, ordered by
     * first grant. A grant whose connector id (or credential id) is not a UUID grants nothing (the core validated both;
     * a stored row that is not is not trusted).
     */
    public static List<GrantedConnector> across(List<ProjectGrants> projects, Set<UUID> haltedOrgs) {
        Map<UUID, Map<UUID, Set<String>>> tools = new LinkedHashMap<>(); // org -> connector -> tools
        Map<UUID, Map<UUID, UUID>> credentials = new LinkedHashMap<>(); // org -> connector -> credential
        for (ProjectGrants p : projects) {
            if (haltedOrgs.contains(p.orgId())) {
                continue;
            }
            for (ConnectorGrant g : p.grants()) {
                Optional<UUID> connector = g.connector();
                Optional<UUID> credential = g.credential();
                if (connector.isEmpty() || g.credentialId() != null && credential.isEmpty()) {
                    continue;
                }
                tools.computeIfAbsent(p.orgId(), o -> new LinkedHashMap<>())
                        .computeIfAbsent(connector.get(), c -> new LinkedHashSet<>())
                        .addAll(g.allowedTools() == null ? List.of() : g.allowedTools());
                credential.ifPresent(c -> credentials.computeIfAbsent(p.orgId(), o -> new LinkedHashMap<>())
                        .putIfAbsent(connector.get(), c));
            }
        }
        List<GrantedConnector> out = new ArrayList<>();
        tools.forEach((org, byConnector) -> byConnector.forEach((connector, names) -> out.add(new GrantedConnector(
                org, connector, List.copyOf(names),
                Optional.ofNullable(credentials.getOrDefault(org, Map.of()).get(connector))))));
        return List.copyOf(out);
    }
}
