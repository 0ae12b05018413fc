package dev.stockade.api.impact;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.connectors.GrantedTools;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.governance.Effective;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.FieldError;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.sandbox.Sandbox;
import dev.stockade.api.sandbox.SandboxService;
import dev.stockade.policy.impact.ImpactLimits;
import dev.stockade.policy.impact.ImpactReplay;
import dev.stockade.policy.impact.ReplayCapExceeded;
import dev.stockade.policy.impact.TrailEntries;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Policy impact over the platform's own trail: the request's window of egress decisions and tool calls (of the
 * organization, or of the grant's project), read page by page and replayed by the core under each sandbox's candidate
 * ({@link ImpactCandidates}). Read-only: nothing is stored, and the caps bound the work before it starts.
 */
@Singleton
public class PolicyImpactService {
    private final PlatformTrail trail;
    private final EnforcementStore enforcement;
    private final Effective effective;
    private final SandboxService sandboxes;
    private final GrantedTools granted;
    private final Sql jdbc;
    private final ObjectMapper json;
    private final ImpactLimits limits = ImpactLimits.defaults();

    PolicyImpactService(PlatformTrail trail, EnforcementStore enforcement, Effective effective,
                        SandboxService sandboxes, GrantedTools granted, Sql jdbc, ObjectMapper json) {
        this.trail = trail;
        this.enforcement = enforcement;
        this.effective = effective;
        this.sandboxes = sandboxes;
        this.granted = granted;
        this.jdbc = jdbc;
        this.json = json;
    }

    /** Replays the window {@code body} names under its candidates, within the grant's organization or project. */
    public ImpactView replay(Grant grant, String body) {
        ImpactRequest request = ImpactRequest.parse(json, body, limits, Instant.now());
        ImpactCandidates candidates = new ImpactCandidates(grant.orgId(), grant.projectId(), request, enforcement,
                effective, granted, boundNames(grant), token -> sandboxes.byToken(token).map(Sandbox::id));
        List<String> unmatched = candidates.unmatched();
        if (!unmatched.isEmpty()) {
            throw ApiProblem.invalid("/policies", "unknown-policy", "no sandbox, person or API token in scope is"
                    + " governed by a policy named `" + unmatched.get(0) + "`");
        }
        ImpactReplay replay = new ImpactReplay(candidates, limits);
        try {
            trail.each(grant, new TrailWindow(request.since(), request.until()),
                    entry -> {
                        candidates.next(entry);
                        replay.add(TrailEntries.read(entry));
                    });
        } catch (ReplayCapExceeded e) {
            throw new ApiProblem(ProblemCode.VALIDATION_FAILED, e.getMessage(),
                    List.of(new FieldError("/since", "too-many-entries", e.getMessage())));
        }
        return ImpactView.of(request.since(), request.until(), replay.report(), limits);
    }

    /** The names of the policies bound to people and API tokens in the grant's organization (or project). */
    private Set<String> boundNames(Grant grant) {
        return new HashSet<>(jdbc.query("SELECT DISTINCT p.document ->> 'name' FROM policy_bindings b JOIN policies p"
                + " ON p.id = b.policy_id WHERE b.org_id = ? AND b.subject_type IN ('user', 'api-token')"
                + " AND (CAST(? AS uuid) IS NULL OR b.project_id IS NULL OR b.project_id = ?)",
                Arrays.asList(grant.orgId(), grant.projectId(), grant.projectId()), rs -> rs.getString(1)));
    }
}
