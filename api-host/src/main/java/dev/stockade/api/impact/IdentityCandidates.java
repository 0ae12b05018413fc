package dev.stockade.api.impact;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.connectors.GrantedTools;
import dev.stockade.api.governance.Effective;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.policy.compiler.ConnectorReach;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.impact.Candidate;
import dev.stockade.policy.model.ConnectorGrant;
import io.micronaut.core.annotation.Nullable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * The candidate of a person or an API token calling a connector tool: the connector grants the MCP server would list
 * for that caller at the endpoint the call came through (platform.md, "MCP tool visibility per identity"), with the
 * candidate documents in place of the stored ones. The projects counted are those {@link GrantedTools} counts: at
 * {@code /mcp} every project of the organization the caller reaches, at a project endpoint (or the REST tool-call
 * routes) that project; each is resolved from the policies bound to the caller there under the org ceiling, and the
 * projects' grants are merged by the core ({@link ConnectorReach}). A caller that reaches none of them now has no
 * candidate: replay cannot tell a removed membership from a removed grant.
 */
final class IdentityCandidates {
    /** Which endpoint a call came through: the organization-wide one ({@code project} null) or a project's. */
    record Caller(String type, UUID id, @Nullable UUID project) {
    }

    private final UUID orgId;
    private final Effective effective;
    private final GrantedTools granted;
    private final UnaryOperator<List<JsonNode>> replaced;
    private final @Nullable List<JsonNode> ceiling;
    private final Map<Caller, Optional<Candidate>> resolved = new HashMap<>();
    private DecisionProgram noEgress;

    /**
     * @param replaced the stored documents with each candidate of the same name in place
     * @param ceiling  the candidate ceiling replacing the stored one whole, {@code null} to keep it (with replacements)
     */
    IdentityCandidates(UUID orgId, Effective effective, GrantedTools granted, UnaryOperator<List<JsonNode>> replaced,
                       @Nullable List<JsonNode> ceiling) {
        this.orgId = orgId;
        this.effective = effective;
        this.granted = granted;
        this.replaced = replaced;
        this.ceiling = ceiling;
    }

    Optional<Candidate> of(Caller caller) {
        return resolved.computeIfAbsent(caller, this::resolve);
    }

    private Optional<Candidate> resolve(Caller caller) {
        List<UUID> projects = granted.projectsOf(caller.type(), caller.id(), orgId, caller.project());
        if (projects.isEmpty()) {
            return Optional.empty();
        }
        try {
            List<JsonNode> clip = ceiling != null ? ceiling : replaced.apply(effective.ceiling(orgId));
            List<ConnectorReach.ProjectGrants> grants = new ArrayList<>();
            for (UUID project : projects) {
                List<JsonNode> bound = replaced.apply(effective.grantsFor(orgId, project, caller.type(), caller.id()));
                grants.add(new ConnectorReach.ProjectGrants(orgId, project,
                        effective.resolve(orgId, new Effective.Documents(clip, bound)).connectorGrants()));
            }
            List<ConnectorGrant> merged = ConnectorReach.across(grants, Set.of()).stream()
                    .map(g -> new ConnectorGrant(g.connectorId().toString(), g.tools(),
                            g.credentialId().map(UUID::toString).orElse(null)))
                    .toList();
            return Optional.of(new Candidate(noEgress(), merged, noEgress()));
        } catch (ApiProblem e) {
            return Optional.empty(); // a stored document that no longer resolves: not replayed, never guessed
        }
    }

    /**
     * A person or an API token sends no egress through the proxy; the candidate's program is the one of no policy
     * (everything denied), compiled once, and is never asked: only tool calls reach an identity's candidate.
     */
    private DecisionProgram noEgress() {
        if (noEgress == null) {
            noEgress = Candidate.of(effective.resolve(orgId, new Effective.Documents(List.of(), List.of()))).program();
        }
        return noEgress;
    }
}
