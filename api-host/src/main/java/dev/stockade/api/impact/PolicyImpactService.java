package dev.stockade.api.impact;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.audit.AuditQuery;
import dev.stockade.api.audit.AuditTrail;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.governance.Effective;
import dev.stockade.api.kernel.access.Grant;
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
import java.util.List;

/**
 * Policy impact over the platform's own trail: the request's window of egress decisions and tool calls (of the
 * organization, or of the grant's project), read page by page and replayed by the core under each sandbox's candidate
 * ({@link ImpactCandidates}). Read-only: nothing is stored, and the caps bound the work before it starts.
 */
@Singleton
public class PolicyImpactService {
    private static final List<String> KINDS = List.of("egress", "tool-call");

    private final AuditTrail trail;
    private final EnforcementStore enforcement;
    private final Effective effective;
    private final SandboxService sandboxes;
    private final ObjectMapper json;
    private final ImpactLimits limits = ImpactLimits.defaults();

    public PolicyImpactService(AuditTrail trail, EnforcementStore enforcement, Effective effective,
                               SandboxService sandboxes, ObjectMapper json) {
        this.trail = trail;
        this.enforcement = enforcement;
        this.effective = effective;
        this.sandboxes = sandboxes;
        this.json = json;
    }

    /** Replays the window {@code body} names under its candidates, within the grant's organization or project. */
    public ImpactView replay(Grant grant, String body) {
        ImpactRequest request = ImpactRequest.parse(json, body, limits, Instant.now());
        ImpactCandidates candidates = new ImpactCandidates(grant.orgId(), grant.projectId(), request, enforcement,
                effective, token -> sandboxes.byToken(token).map(Sandbox::id));
        List<String> unmatched = candidates.unmatched();
        if (!unmatched.isEmpty()) {
            throw ApiProblem.invalid("/policies", "unknown-policy", "no sandbox in scope is governed by a policy named `"
                    + unmatched.get(0) + "`");
        }
        ImpactReplay replay = new ImpactReplay(candidates, limits);
        try {
            for (String kind : KINDS) {
                stream(grant, request, kind, replay);
            }
        } catch (ReplayCapExceeded e) {
            throw new ApiProblem(ProblemCode.VALIDATION_FAILED, e.getMessage(),
                    List.of(new FieldError("/since", "too-many-entries", e.getMessage())));
        }
        return ImpactView.of(request.since(), request.until(), replay.report(), limits);
    }

    /** Every entry of one kind in the window, a page at a time, newest first (the order does not matter). */
    private void stream(Grant grant, ImpactRequest request, String kind, ImpactReplay replay) {
        Instant cursor = null;
        Long cursorId = null;
        while (true) {
            AuditTrail.Page page = trail.page(grant.orgId(), new AuditQuery(cursor, cursorId, request.since(),
                    request.until(), kind, null, null, grant.projectId(), null, false, AuditQuery.MAX_LIMIT));
            page.items().forEach(e -> replay.add(TrailEntries.read(exported(e))));
            if (page.nextCursor() == null) {
                return;
            }
            cursor = Instant.parse(page.nextCursor());
            cursorId = page.nextCursorId();
        }
    }

    /** An entry in the shape the API answers and the CLI exports, which the core reads. */
    private ObjectNode exported(AuditTrail.Entry e) {
        ObjectNode n = json.createObjectNode().put("at", e.at().toString()).put("kind", e.kind())
                .put("action", e.action()).put("outcome", e.outcome()).put("target", e.target());
        n.putObject("actor").put("type", e.actor().type()).put("id", e.actor().id());
        n.set("details", json.valueToTree(e.details()));
        return n;
    }
}
