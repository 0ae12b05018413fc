package dev.stockade.api.impact;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.connectors.GrantedTools;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.enforcement.SandboxEnforcement;
import dev.stockade.api.governance.Effective;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.policy.impact.Candidate;
import dev.stockade.policy.impact.CandidateSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The candidate of each sandbox: the documents its proxy enforces now (attached policies, embedded policy, org
 * ceiling), each stored policy that a candidate names replaced by the candidate, the ceiling replaced whole when the
 * request gives one, resolved by the core as enforcement resolves them. A sandbox deleted since, outside the scope, or
 * whose stored documents no longer resolve has no candidate. A person's or API token's tool call is resolved by
 * {@link IdentityCandidates} for the endpoint it came through, which {@link #next} reads from the entry. Each sandbox
 * and each caller is resolved once per replay.
 */
final class ImpactCandidates implements CandidateSource {
    private final UUID orgId;
    private final Map<UUID, SandboxEnforcement> sandboxes = new HashMap<>();
    private final Map<String, JsonNode> byName = new HashMap<>();
    private final List<JsonNode> ceiling;
    private final Effective effective;
    private final Function<UUID, Optional<UUID>> sandboxOfToken;
    private final Map<UUID, Optional<Candidate>> resolved = new HashMap<>();
    private final Set<String> boundNames;
    private final IdentityCandidates identities;
    private IdentityCandidates.Caller caller;

    /**
     * @param boundNames     the names of the policies bound to people and API tokens in scope
     * @param sandboxOfToken the sandbox a sandbox token was minted for
     */
    ImpactCandidates(UUID orgId, UUID projectId, ImpactRequest request, EnforcementStore enforcement,
                     Effective effective, GrantedTools granted, Set<String> boundNames,
                     Function<UUID, Optional<UUID>> sandboxOfToken) {
        this.orgId = orgId;
        this.effective = effective;
        this.sandboxOfToken = sandboxOfToken;
        this.ceiling = request.ceiling();
        this.boundNames = boundNames;
        this.identities = new IdentityCandidates(orgId, effective, granted, this::replaced, ceiling);
        for (EnforcementStore.Change c : enforcement.current(orgId)) {
            if (projectId == null || projectId.equals(c.enforcement().projectId())) {
                sandboxes.put(c.sandboxId(), c.enforcement());
            }
        }
        request.policies().forEach(doc -> byName.put(doc.path("name").asText(), doc));
    }

    /** The names of candidates that replace nothing a sandbox, person or API token in scope is governed by. */
    List<String> unmatched() {
        List<String> out = new ArrayList<>();
        for (String name : byName.keySet()) {
            boolean used = boundNames.contains(name) || sandboxes.values().stream().anyMatch(s ->
                    names(s.grantDocuments()).contains(name) || ceiling == null && names(s.ceilingDocuments()).contains(name))
                    || ceiling == null && !boundNames.isEmpty() && names(effective.ceiling(orgId)).contains(name);
            if (!used) {
                out.add(name);
            }
        }
        return out;
    }

    /**
     * Reads the endpoint of the entry replayed next: a tool call of a person or an API token at {@code /mcp}
     * ({@code via} {@code mcp}: every project the caller reaches) or at one project ({@code project-mcp}, {@code rest}:
     * the entry's project). Any other entry, or an endpoint not recorded, resolves no caller.
     */
    void next(JsonNode entry) {
        caller = null;
        String type = entry.path("actor").path("type").asText("");
        if (!"tool-call".equals(entry.path("kind").asText()) || !type.equals("user") && !type.equals("api-token")) {
            return;
        }
        try {
            UUID id = UUID.fromString(entry.path("actor").path("id").asText());
            String via = entry.path("details").path("via").asText("");
            String project = entry.path("projectId").asText("");
            if (via.equals("mcp")) {
                caller = new IdentityCandidates.Caller(type, id, null);
            } else if ((via.equals("project-mcp") || via.equals("rest")) && !project.isEmpty()) {
                caller = new IdentityCandidates.Caller(type, id, UUID.fromString(project));
            }
        } catch (IllegalArgumentException e) {
            caller = null; // an id that is not one: no candidate, never guessed
        }
    }

    @Override
    public Optional<Candidate> forSandbox(String who) {
        if (who != null && (who.startsWith("user:") || who.startsWith("api-token:"))) {
            // INVARIANT: next(entry) was called with this entry; its caller is `who`
            return caller == null ? Optional.empty() : identities.of(caller);
        }
        Optional<UUID> sandbox = sandboxOf(who);
        return sandbox.isEmpty() ? Optional.empty() : resolved.computeIfAbsent(sandbox.get(), this::resolve);
    }

    /** An egress entry names the sandbox id; a tool call names its caller ({@code sandbox-token:<token id>}). */
    private Optional<UUID> sandboxOf(String who) {
        if (who == null) {
            return Optional.empty();
        }
        try {
            if (who.startsWith("sandbox-token:")) {
                return sandboxOfToken.apply(UUID.fromString(who.substring("sandbox-token:".length())));
            }
            return who.indexOf(':') >= 0 ? Optional.empty() : Optional.of(UUID.fromString(who));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private Optional<Candidate> resolve(UUID sandboxId) {
        SandboxEnforcement s = sandboxes.get(sandboxId);
        if (s == null) {
            return Optional.empty();
        }
        try {
            List<JsonNode> clip = ceiling != null ? ceiling : replaced(s.ceilingDocuments());
            return Optional.of(Candidate.of(effective.resolve(orgId, new Effective.Documents(clip,
                    replaced(s.grantDocuments())))));
        } catch (ApiProblem e) {
            return Optional.empty(); // a stored document that no longer resolves: not replayed, never guessed
        }
    }

    private List<JsonNode> replaced(List<JsonNode> stored) {
        return stored.stream().map(doc -> byName.getOrDefault(doc.path("name").asText(), doc)).toList();
    }

    private static List<String> names(List<JsonNode> docs) {
        return docs.stream().map(d -> d.path("name").asText()).toList();
    }
}
